/** Small helpers shared by the resources: answers that fail before any request is made, and wire timestamps. */
import { MailroomError } from "./errors.js";
import type { MailroomResponse } from "./types.js";

export const failure = <T>(error: MailroomError): MailroomResponse<T> => ({ data: null, error, headers: null });

/** Checked before any request: an empty id would address the collection instead of one item. */
export function missing<T>(value: string | undefined, field: string): MailroomResponse<T> | undefined {
  if (value) return undefined;
  return failure(new MailroomError({ name: "missing_required_field", message: `Missing \`${field}\`.` }));
}

export const isoTime = (value: string | Date): string => (value instanceof Date ? value.toISOString() : value);
