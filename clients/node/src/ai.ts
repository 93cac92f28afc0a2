/**
 * `mailroom.ai`: whether a model is configured, the subject optimiser (scored offline by the server's rules;
 * suggestions when a model is configured) and the email writer (needs a configured model; otherwise a 503
 * `service_unavailable`). Nothing is sent.
 */
import type { Transport } from "./http.js";
import type {
  AiStatus,
  MailroomResponse,
  RequestOptions,
  SubjectOptions,
  SubjectResponse,
  WriteOptions,
  WriteResponse,
} from "./types.js";

export class Ai {
  constructor(private readonly transport: Transport) {}

  /**
   * Whether a model is configured (its name), else what to configure (the words `write`'s 503 would answer): ask
   * before submitting a brief, since drafts and subject suggestions need one.
   */
  async status(options: RequestOptions = {}): Promise<MailroomResponse<AiStatus>> {
    return this.transport.request({ ...options, method: "GET", path: "/ai" });
  }

  /** Scores a subject line 0–100 with findings and how to fix each. */
  async subject(payload: SubjectOptions, options: RequestOptions = {}): Promise<MailroomResponse<SubjectResponse>> {
    return this.transport.request({ ...options, method: "POST", path: "/ai/subject", body: payload });
  }

  /** Drafts `{subject, html, text}` from a brief, optionally saved as a draft template. */
  async write(payload: WriteOptions, options: RequestOptions = {}): Promise<MailroomResponse<WriteResponse>> {
    return this.transport.request({ ...options, method: "POST", path: "/ai/write", body: payload });
  }
}
