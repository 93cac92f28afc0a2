/**
 * What the CLI says and how it ends: a result on stdout, a failure as one `mailroom: …` line on stderr with its
 * exit code (2 for the user's typing, 1 for everything else), and `--json` answers. The commands in cli/ write only
 * through these.
 */

export const out = (text: string): void => {
  process.stdout.write(`${text}\n`);
};

export function fail(message: string, code = 1): never {
  process.stderr.write(`mailroom: ${message}\n`);
  process.exit(code);
}

/** Prints a command's answer: as JSON with `--json`, else as the human lines `human` writes. */
export type Print = (value: unknown, human: () => void) => void;

export const printer =
  (json: boolean | undefined): Print =>
  (value, human) =>
    json ? out(JSON.stringify(value, null, 2)) : human();
