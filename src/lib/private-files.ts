/**
 * Files only Mailroom's own user may open: the data directory and what it holds (the SQLite database with its
 * WAL and shared-memory files, the master key, the generated TLS key and certificate) and the backups made of
 * them — every message and every secret is in there. Invariant: such a file is created owner-only (0600, a
 * directory 0700) in the same call that creates it, never created wider and narrowed afterwards, so no other local
 * user gets a moment to open it; a file found wider (made by an older version) is narrowed, with a warning saying
 * so. A directory Mailroom did not create is never changed, only reported: a data directory may be one the operator
 * shares with other software (their home, the working directory, /tmp), and its files are private either way.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";
import type { Logger } from "./logger.ts";

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIRECTORY_MODE = 0o700;
/** Any permission bit for the group or for other users. */
const SHARED_BITS = 0o077;

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** The mode of an existing path with group or other bits set, or undefined (private, or missing). */
function sharedMode(path: string): number | undefined {
  try {
    const { mode } = statSync(path);
    return mode & SHARED_BITS ? mode : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Narrows an existing file of Mailroom's to its owner (0600) when group or other bits are set, and warns: the
 * operator learns why a backup agent running as another user stopped reading it. A missing path is left alone; a
 * path this process cannot change (another owner) is reported, not fatal.
 */
export function keepPrivate(path: string, logger: Logger): void {
  const mode = sharedMode(path);
  if (mode === undefined) return;
  try {
    chmodSync(path, PRIVATE_FILE_MODE);
    logger.warn("narrowed permissions to the owner: this file holds messages or secrets", {
      path,
      was: octal(mode),
      now: octal(PRIVATE_FILE_MODE),
    });
  } catch (error) {
    logger.warn("this file holds messages or secrets and is open to other users; make it owner-only", {
      path,
      mode: octal(mode),
      reason: (error as Error).message,
    });
  }
}

/**
 * Creates the directory and any missing parents owner-only (0700). An existing directory open to others is left
 * as it is and reported, with the command that narrows it.
 */
export function ensurePrivateDirectory(path: string, logger: Logger): void {
  if (mkdirSync(path, { recursive: true, mode: PRIVATE_DIRECTORY_MODE }) !== undefined) return;
  const mode = sharedMode(path);
  if (mode !== undefined)
    logger.warn(
      `this directory holds messages or secrets and is open to other users; if it is Mailroom's alone, run: chmod 700 ${path}`,
      { path, mode: octal(mode) },
    );
}

/**
 * Creates an empty owner-only file (0600) when none is there, so that whoever fills it afterwards (SQLite, which
 * creates files 0644 and gives the WAL and shared-memory files the database's mode) inherits the mode. With
 * `exclusive`, an existing file is an error (EEXIST) instead.
 */
export function createPrivateFile(path: string, options: { exclusive?: boolean } = {}): void {
  closeSync(openSync(path, options.exclusive ? "wx" : "a", PRIVATE_FILE_MODE));
}
