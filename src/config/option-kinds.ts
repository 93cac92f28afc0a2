/**
 * The kinds of configuration option (docs/operations.md#configuration) and the builders the option tables are
 * written with: each option's type, default and documentation, and the TypeScript value each kind reads as.
 */
import { parseDuration } from "../lib/durations.ts";

export type OptionType =
  | { kind: "string"; pattern?: RegExp; hint?: string }
  | { kind: "int"; min: number; max: number }
  | { kind: "rate" }
  | { kind: "bool" }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "duration"; min?: number }
  | { kind: "string_list" }
  | { kind: "duration_list" };

export interface OptionSpec {
  type: OptionType;
  default: unknown;
  doc: string;
  /** Redacted by print-config and never logged. */
  secret?: boolean;
  /** A URL: print-config shows it with the credentials inside it redacted (lib/url-credentials.ts), even when secret. */
  url?: boolean;
}

export type Spec<K extends OptionType["kind"]> = OptionSpec & { type: Extract<OptionType, { kind: K }> };

export const string = (def: string, doc: string, extra: { secret?: boolean; url?: boolean } = {}): Spec<"string"> => ({
  type: { kind: "string" },
  default: def,
  doc,
  ...extra,
});
export const int = (def: number, min: number, max: number, doc: string): Spec<"int"> => ({
  type: { kind: "int", min, max },
  default: def,
  doc,
});
/** A share from 0 to 1, e.g. 0.04 for 4 %. */
export const rate = (def: number, doc: string): Spec<"rate"> => ({ type: { kind: "rate" }, default: def, doc });
export const bool = (def: boolean, doc: string): Spec<"bool"> => ({ type: { kind: "bool" }, default: def, doc });
export const duration = (def: string, doc: string): Spec<"duration"> => ({
  type: { kind: "duration" },
  default: parseDuration(def),
  doc,
});
export const oneOf = (values: readonly string[], def: string, doc: string): Spec<"enum"> => ({
  type: { kind: "enum", values },
  default: def,
  doc,
});
export const stringList = (def: string[], doc: string): Spec<"string_list"> => ({
  type: { kind: "string_list" },
  default: def,
  doc,
});
export const durationList = (def: string[], doc: string): Spec<"duration_list"> => ({
  type: { kind: "duration_list" },
  default: def.map(parseDuration),
  doc,
});

export const MIB = 1024 * 1024;

/** Provider names: in `[providers.<name>]`, `default_provider` and a domain's `providers`. */
export type ValueOf<S extends OptionSpec> = S["type"]["kind"] extends "int" | "duration" | "rate"
  ? number
  : S["type"]["kind"] extends "bool"
    ? boolean
    : S["type"]["kind"] extends "string_list"
      ? string[]
      : S["type"]["kind"] extends "duration_list"
        ? number[]
        : string;

export type SectionValues<S extends Record<string, OptionSpec>> = { readonly [K in keyof S]: ValueOf<S[K]> };
