/**
 * `backup FILE`: a consistent copy of the SQLite store while the server runs, and beside it the master key that opens
 * the secrets in it (or a reminder to keep MAILROOM_SECRET_KEY's value). A PostgreSQL store is pg_dump's to copy.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { databasePath } from "../db/open.ts";
import { PRIVATE_FILE_MODE } from "../lib/private-files.ts";
import { masterKeyFile } from "../lib/secrets.ts";
import type { Command } from "./context.ts";
import { fail, out } from "./output.ts";

export const backup: Command = async ({ services, config, secretKey, args: [file] }) => {
  if (!file) fail("backup needs a destination file");
  const keyCopy = `${file}.secret.key`;
  for (const path of [file, keyCopy]) if (existsSync(path)) fail(`${path} exists; choose a new file`);
  if (services.store.engine === "postgres")
    fail("the store is PostgreSQL: back it up with pg_dump (see the README, Backup)");
  // VACUUM INTO writes a consistent snapshot while other connections keep reading and writing (WAL).
  try {
    await services.store.backup(file);
  } catch (error) {
    fail(`backup to ${file} failed: ${(error as Error).message}`);
  }
  out(`backed up ${databasePath(config)} to ${file}`);
  // DKIM keys and webhook secrets in the copy open only with the master key: a backup without it cannot be restored.
  if (secretKey)
    return out(
      "The master key is MAILROOM_SECRET_KEY: keep its value with this backup; without it the DKIM keys and webhook secrets in it cannot be read.",
    );
  // Owner-only from its creation, like the database copy (store.backup): the key opens every secret in that copy.
  writeFileSync(keyCopy, readFileSync(masterKeyFile(config.data_dir)), { mode: PRIVATE_FILE_MODE, flag: "wx" });
  out(
    `copied the master key to ${keyCopy} (mode 0600): restore it as secret.key in the data directory with the database; without it the DKIM keys and webhook secrets cannot be read.`,
  );
};
