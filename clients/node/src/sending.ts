/**
 * `mailroom.sending`: sending pauses (docs/operations.md) — the organisation's, one of its sending domains' or a provider's.
 * While a pause applies, mail is still accepted and its recipients wait as `held` (`deliveries.list({ status:
 * "held" })`), never attempted; on resume they go out, oldest first. Reading needs the `deliveries:read` scope,
 * pausing and resuming `deliveries:write` (`full_access` has both). And the guardrails' sending health (docs/deliverability.md),
 * which needs `domains:read`.
 */
import type { Transport } from "./http.js";
import type {
  MailroomResponse,
  PauseSendingOptions,
  RequestOptions,
  ResumeSendingOptions,
  SendingHealthOverview,
  SendingResumed,
  SendingState,
} from "./types.js";

export class Sending {
  constructor(private readonly transport: Transport) {}

  /** The pauses that apply now, oldest first: the organisation's, its sending domains', providers'. */
  async get(options: RequestOptions = {}): Promise<MailroomResponse<SendingState>> {
    return this.transport.request({ ...options, method: "GET", path: "/sending" });
  }

  /**
   * Bounce and complaint rates over the guardrails' window, for the organisation and each of its sending domains, and
   * what they led to: `ok`, `warning`, or `paused` (a guardrail pause, listed by `get()`, which a person resumes).
   */
  async health(options: RequestOptions = {}): Promise<MailroomResponse<SendingHealthOverview>> {
    return this.transport.request({ ...options, method: "GET", path: "/sending/health" });
  }

  /**
   * Pauses sending for the organisation, one of its sending domains (`not_found` for another) or a configured
   * provider (`validation_error` on `name` for another); pausing what is paused already keeps the first pause.
   * Answers the pauses that apply now.
   */
  async pause(payload: PauseSendingOptions, options: RequestOptions = {}): Promise<MailroomResponse<SendingState>> {
    return this.transport.request({ ...options, method: "POST", path: "/sending/pause", body: payload });
  }

  /**
   * Resumes what was paused (`not_found` when it is not): every held recipient no other pause holds goes back to the
   * queue. Answers the pauses left and how many were `released`.
   */
  async resume(payload: ResumeSendingOptions, options: RequestOptions = {}): Promise<MailroomResponse<SendingResumed>> {
    return this.transport.request({ ...options, method: "POST", path: "/sending/resume", body: payload });
  }
}
