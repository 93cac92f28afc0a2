/** A configuration problem found at start: its message names the option; the CLI prints it and exits non-zero. */
export class ConfigError extends Error {}
