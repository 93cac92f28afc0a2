/**
 * Files only Mailroom's own user may open: the data directory and what it holds (the SQLite database with its
 * WAL and shared-memory files, the master key, the generated TLS key and certificate) and the backups made of
 * them — every message and every secret is in there. Invariant: such a file is created owner-only (0600, a
 * directory 0700) in the same call that creates it, never created wider and narrowed afterwards, so no other local
 * user gets a moment to open it; one found wider (made by an older version) is narrowed, with a warning saying so.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";
import type { Logger } from "./logger.ts";

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIRECTORY_MODE = 0o700;
/** Any permission bit for the group or for other users. */
const SHARED_BITS = 0o077;

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/**
 * Narrows an existing file or directory to its owner (0600 / 0700) when group or other bits are set, and warns:
 * the operator learns why a backup agent running as another user stopped reading it. A missing path is left alone;
 * a path this process cannot change (another owner) is reported, not fatal.
 */
export function keepPrivate(path: string, logger: Logger): void {
  let mode: number;
  let directory: boolean;
  try {
    const stat = statSync(path);
    mode = stat.mode;
    directory = stat.isDirectory();
  } catch {
    return;
  }
  if ((mode & SHARED_BITS) === 0) return;
  const wanted = directory ? PRIVATE_DIRECTORY_MODE : PRIVATE_FILE_MODE;
  try {
    chmodSync(path, wanted);
    logger.warn("narrowed permissions to the owner: this path holds messages or secrets", { path, was: octal(mode), now: octal(wanted) });
  } catch (error) {
    logger.warn("this path holds messages or secrets and is open to other users; make it owner-only", { path, mode: octal(mode), reason: (error as Error).message });
  }
}

/** Creates the directory and any missing parents owner-only (0700); an existing one is kept private. */
export function ensurePrivateDirectory(path: string, logger: Logger): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  keepPrivate(path, logger);
}

/**
 * Creates an empty owner-only file (0600) when none is there, so that whoever fills it afterwards (SQLite, which
 * creates files 0644 and gives the WAL and shared-memory files the database's mode) inherits the mode. With
 * `exclusive`, an existing file is an error (EEXIST) instead.
 */
export function createPrivateFile(path: string, options: { exclusive?: boolean } = {}): void {
  closeSync(openSync(path, options.exclusive ? "wx" : "a", PRIVATE_FILE_MODE));
}
