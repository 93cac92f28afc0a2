/**
 * Replies of the SMTP relay. A refusal that comes from the sending policy is an `AppError` and its code comes
 * from THE error table (src/errors.ts); the few replies about protocol state (TLS first, AUTH first, too many
 * recipients in one transaction, reconnect) are the fixed lines below, each with the RFC that defines it.
 * Invariant: an error that is not an `AppError` becomes 451 4.3.0 with a reference id that is also logged — never
 * a 5xx, never internal text on the wire.
 */
import { asStoreFault } from "../db/faults.ts";
import { smtpReplyOf, toAppError } from "../errors.ts";
import { newId } from "../lib/ids.ts";
import type { Logger } from "../lib/logger.ts";

/** What smtp-server turns into a reply line: `<responseCode> <message>`. */
export interface ReplyError extends Error {
  responseCode: number;
}

/** Where in the transaction an error happened: the table gives content errors (after DATA) their own reply. */
export type SmtpStage = "command" | "data";

/** RFC 5321 §4.5.3.1.5: a reply line is at most 512 octets with its code and CRLF. */
const MAX_TEXT = 400;

/** A reply with an RFC 3463 enhanced status code leading its text. */
export function reply(code: number, enhanced: string, text: string): ReplyError {
  // One line of printable ASCII (RFC 5321 §4.2: reply text is 7-bit; SMTPUTF8 is not offered).
  const line = text
    .replace(/[\r\n]+/g, " ")
    .replace(/[^\x20-\x7e]/g, "?")
    .slice(0, MAX_TEXT);
  return Object.assign(new Error(`${enhanced} ${line}`), { responseCode: code });
}

const AUTH_REQUIRED = "Authentication required: username apikey, password an API key";

/** Replies about protocol state rather than policy. */
export const PROTOCOL_REPLIES = {
  /** RFC 3207 §4: commands other than NOOP, EHLO, STARTTLS and QUIT before TLS on the submission port. */
  tlsRequired: () => reply(530, "5.7.0", "Must issue a STARTTLS command first"),
  /** RFC 4954 §6: a mail transaction before AUTH (smtp-server sends it itself, see authRequiredText). */
  authRequired: () => reply(530, "5.7.0", AUTH_REQUIRED),
  /** The same text for smtp-server's `authRequiredMessage`, which it sends with code 530. */
  authRequiredText: `5.7.0 ${AUTH_REQUIRED}`,
  /** RFC 5321 §4.5.3.1.10: the client sends the remaining recipients in another transaction. */
  tooManyRecipients: (max: number) => reply(452, "4.5.3", `Too many recipients; at most ${max} per message`),
  /** The client closed the connection in the middle of DATA: nothing was stored (the reply reaches no one). */
  connectionLost: () => reply(451, "4.4.2", "Connection lost before the end of the message; nothing was stored"),
  /** RFC 5321 §3.8 / §4.2.5: too many connections from one client; it may retry later. */
  tooManyConnections: () => reply(421, "4.7.0", "Too many connections from your address; try again later"),
  /** RFC 5321 §3.8: the server closes the session with 421; the client reconnects and continues. */
  reconnect: (max: number) => reply(421, "4.7.0", `${max} messages sent on this connection; reconnect to send more`),
  /**
   * RFC 5321 §3.8: a session past its time limit is closed with 421 (RFC 3463 X.4.2, as smtp-server's own idle
   * timeout); nothing it had not been answered 250 for was kept, and the client reconnects.
   */
  sessionTooLong: (seconds: number) =>
    reply(421, "4.4.2", `Session time limit of ${seconds} seconds reached; reconnect to continue`),
} as const;

/** The success reply after DATA (the contract's wording): the id is the one the look-up API knows. */
export function queuedText(emailId: string): string {
  return `2.0.0 Ok: queued as ${emailId}`;
}

/**
 * Maps any failure to its reply through the error table. Unknown errors are logged with a reference id that the
 * reply carries, so an operator can find the cause from what the client saw.
 */
export function replyFor(error: unknown, stage: SmtpStage, logger: Logger): ReplyError {
  const appError = toAppError(asStoreFault(error));
  const { code, enhanced } = smtpReplyOf(appError, stage);
  if (appError.name !== "internal_error") return reply(code, enhanced, appError.message);
  const reference = newId();
  logger.error("smtp relay: internal error", { reference, err: appError.cause ?? appError });
  return reply(code, enhanced, `Temporary local problem, please try again later (reference ${reference})`);
}
