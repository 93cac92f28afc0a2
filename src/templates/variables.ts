/**
 * The variables of a render or a send (docs/templates-and-ai.md#templates; Resend's `template.variables` is `Record<string, string |
 * number>`), checked on the event loop before anything is rendered: each value a string or a finite number, each
 * declared variable of its declared type, given or else its fallback. Pure.
 * Invariant: what reaches Handlebars holds no array, object or boolean — nothing but the variables themselves for a
 * template to iterate over — and no string longer than a message may be.
 */
import { AppError, validationError, type ErrorDetail } from "../errors.ts";
import type { TemplateContent, TemplateValues } from "./model.ts";

const kindOf = (value: unknown) =>
  Array.isArray(value) ? "array" : typeof value === "number" ? "a number that is not finite" : typeof value;

/**
 * The values a render uses: each declared variable's given value, else its fallback; undeclared values pass through
 * as given. Null stands for a value not given (JSON has no undefined), so a declared variable falls back. A missing
 * value without a fallback, a value of the wrong type, or a value neither string nor finite number is a 400 naming
 * it at `path`; a string longer than the message size limit is a 413.
 */
export function resolveVariables(
  content: TemplateContent,
  given: Record<string, unknown>,
  path: string,
  maxBytes: number,
): TemplateValues {
  const problems: ErrorDetail[] = [];
  // No prototype: a key such as `__proto__` is a variable like any other.
  const values: TemplateValues = Object.create(null);
  for (const [key, value] of Object.entries(given)) {
    if (value === null || value === undefined) continue;
    if (typeof value !== "string" && !(typeof value === "number" && Number.isFinite(value))) {
      problems.push({ path: `${path}.${key}`, message: `must be a string or a number, got ${kindOf(value)}` });
    } else if (typeof value === "string" && value.length > maxBytes) {
      throw new AppError(
        "payload_too_large",
        `The variable ${key} is longer than the message size limit of ${maxBytes} bytes.`,
        { details: [{ path: `${path}.${key}`, message: `must be at most ${maxBytes} characters` }] },
      );
    } else {
      values[key] = value;
    }
  }
  for (const { key, type, fallback_value } of content.variables) {
    const value = Object.hasOwn(given, key) ? given[key] : undefined;
    if (value === undefined || value === null) {
      if (fallback_value === null)
        problems.push({ path: `${path}.${key}`, message: "is required (the template declares it without a fallback)" });
      else values[key] = fallback_value;
    } else if (key in values && typeof values[key] !== type) {
      problems.push({ path: `${path}.${key}`, message: `must be a ${type}, got ${typeof values[key]}` });
    }
  }
  if (problems.length) throw validationError(problems);
  return values;
}
