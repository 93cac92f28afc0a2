/**
 * PostgreSQL's column types where they differ from SQLite's (docs/store.md): bytea for bytes, bigint for epoch
 * milliseconds (read back as numbers, as SQLite's integers are).
 */
import { bigint, customType } from "drizzle-orm/pg-core";

export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });
/** Epoch milliseconds, read back as a number (they stay far below 2^53). */
export const millis = (name: string) => bigint(name, { mode: "number" });
