/**
 * `restore FILE`: puts a `mailroom backup` copy back as the store of an empty data directory
 * (docs/operations.md#backup), with the master key saved beside it (`FILE.secret.key`) or given as
 * MAILROOM_SECRET_KEY, then opens it once so that a backup of an earlier release is migrated at once.
 * Invariants: it refuses a data directory that holds anything (a restore never overwrites a store), a file that is
 * not a sound Mailroom database, one written by a newer release, and a master key that does not open the backup's
 * secrets — each before anything is written. PostgreSQL is restored with psql or pg_restore, as it is backed up.
 */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { resolve } from "node:path";
import { readBackupFile } from "../db/backup-file.ts";
import { MIGRATIONS } from "../db/migrations/index.ts";
import { databasePath } from "../db/open.ts";
import { silentLogger } from "../lib/logger.ts";
import { ensurePrivateDirectory, PRIVATE_FILE_MODE } from "../lib/private-files.ts";
import { createSecretBox, masterKeyFile, parseMasterKey } from "../lib/secrets.ts";
import { createServices } from "../server/app.ts";
import type { Invocation } from "./context.ts";
import { fail, out } from "./output.ts";

export async function restore({ config, cli, secretKey }: Invocation, file: string | undefined): Promise<void> {
  if (!file) fail(`restore needs the backup file (made by ${cli} backup FILE)`);
  if (config.store.url)
    fail(
      "the store is PostgreSQL: restore its pg_dump with psql (plain dump) or pg_restore (custom format) into an empty database",
    );
  if (!existsSync(file)) fail(`${file} does not exist`);
  const dataDir = resolve(config.data_dir);
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0)
    fail(`${dataDir} is not empty: restore only into an empty data directory (move the old one aside first)`);

  let backup: ReturnType<typeof readBackupFile>;
  try {
    backup = readBackupFile(file);
  } catch (error) {
    return fail((error as Error).message);
  }
  const known = new Set(MIGRATIONS.map((migration) => migration.version));
  const newer = backup.migrations.filter((version) => !known.has(version));
  if (newer.length)
    fail(`${file} was written by a newer release (migrations ${newer.join(", ")}): restore it with that release`);

  // The master key: the environment's, else the copy `backup` saved beside the file.
  const keyCopy = `${file}.secret.key`;
  const keyText = secretKey ?? (existsSync(keyCopy) ? readFileSync(keyCopy, "utf8") : undefined);
  if (keyText === undefined)
    fail(
      `no master key: ${keyCopy} is missing and MAILROOM_SECRET_KEY is not set; without it the DKIM keys and webhook secrets in the backup cannot be read`,
    );
  if (backup.sealedSample) {
    try {
      createSecretBox(parseMasterKey(keyText)).open(backup.sealedSample);
    } catch {
      fail(
        `the master key ${secretKey ? "in MAILROOM_SECRET_KEY" : `in ${keyCopy}`} does not open this backup's secrets`,
      );
    }
  }

  ensurePrivateDirectory(dataDir, silentLogger);
  const target = databasePath({ ...config, data_dir: dataDir });
  // Copied under another name and renamed: a restore cut short never leaves a half database where the server looks.
  const partial = `${target}.restoring`;
  try {
    copyFileSync(file, partial);
    chmodSync(partial, PRIVATE_FILE_MODE);
    renameSync(partial, target);
    if (!secretKey) writeFileSync(masterKeyFile(dataDir), keyText, { mode: PRIVATE_FILE_MODE, flag: "wx" });
  } catch (error) {
    rmSync(partial, { force: true });
    fail(`restoring into ${dataDir} failed: ${(error as Error).message}`);
  }
  // Opened once here: migrations of a backup from an earlier release are applied now, not at the next start.
  const services = await createServices({ ...config, data_dir: dataDir }, { secretKey, logger: silentLogger });
  await services.closeProviders();
  await services.store.close();
  const { domains, keys, messages } = backup.counts;
  out(`restored ${file} into ${dataDir}: ${domains} domains, ${keys} API keys, ${messages} messages`);
  out(`start the server on it: ${cli} serve`);
}
