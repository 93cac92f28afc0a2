/** Chooses the engine from `[store] url`: empty → SQLite in the data directory, postgres:// → PostgreSQL. */
import { join } from "node:path";
import type { Config } from "../config/options.ts";
import { ConfigError } from "../lib/config-error.ts";
import type { Logger } from "../lib/logger.ts";
import { openSqliteStore, type SqliteOptions } from "./sqlite.ts";
import type { Store } from "./store.ts";

export function databasePath(config: Config): string {
  return join(config.data_dir, "mailroom.db");
}

export async function openStore(config: Config, logger: Logger, sqliteOptions: SqliteOptions = {}): Promise<Store> {
  const url = config.store.url;
  if (!url) return openSqliteStore(databasePath(config), logger, sqliteOptions);
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new ConfigError("store.url: expected empty (SQLite) or postgres://user:password@host:port/database");
  // Loaded only for PostgreSQL: pg and the PostgreSQL schema cost a SQLite start about 8 ms.
  const { openPostgresStore } = await import("./postgres/adapter.ts");
  return openPostgresStore({ url, poolSize: config.store.pool_size, logger });
}
