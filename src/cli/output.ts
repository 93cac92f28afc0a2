/**
 * What the CLI says and how it ends: a result on stdout, a failure as one `mailroom: …` line on stderr with its
 * exit code (2 for the user's typing, 1 for everything else), and `--json` answers. The commands in cli/ write only
 * through these.
 * Invariant: every line is written whole, and before the next line on either stream (docs/operations.md#command-line):
 * Bun queues what a full pipe does not take at once and writes the rest later, so a line to stderr could land inside
 * stdout's last line, and `process.exit` would drop what was still queued — writes here are synchronous instead.
 */
import { writeSync } from "node:fs";

/** Writes all of `text` to `fd` before returning; a reader that went away (EPIPE) is not written to. */
function writeWhole(fd: number, text: string): void {
  let bytes = Buffer.from(text);
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EPIPE") return;
      if (code !== "EAGAIN") throw error;
      // A non-blocking pipe that is full: its reader takes the rest in a moment.
      Bun.sleepSync(1);
    }
  }
}

export const out = (text: string): void => writeWhole(1, `${text}\n`);

/** The JSON log of a command's services (not the server's, which must never wait on its log's reader): one line. */
export const logLine = (line: string): void => writeWhole(2, `${line}\n`);

/** A note on stderr that is not a failure (which store the command acts on). */
export const note = (message: string): void => writeWhole(2, `mailroom: ${message}\n`);

export function fail(message: string, code = 1): never {
  note(message);
  process.exit(code);
}

/** Prints a command's answer: as JSON with `--json`, else as the human lines `human` writes. */
export type Print = (value: unknown, human: () => void) => void;

export const printer =
  (json: boolean | undefined): Print =>
  (value, human) =>
    json ? out(JSON.stringify(value, null, 2)) : human();
