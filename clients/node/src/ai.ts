/**
 * `mailroom.ai`: the subject optimiser (scored offline by the server's rules; suggestions when a model is
 * configured) and the email writer (needs a configured model; otherwise a 503 `service_unavailable`). Nothing is sent.
 */
import type { Transport } from "./http.js";
import type {
  MailroomResponse,
  RequestOptions,
  SubjectOptions,
  SubjectResponse,
  WriteOptions,
  WriteResponse,
} from "./types.js";

export class Ai {
  constructor(private readonly transport: Transport) {}

  /** Scores a subject line 0–100 with findings and how to fix each. */
  async subject(payload: SubjectOptions, options: RequestOptions = {}): Promise<MailroomResponse<SubjectResponse>> {
    return this.transport.request({ ...options, method: "POST", path: "/ai/subject", body: payload });
  }

  /** Drafts `{subject, html, text}` from a brief, optionally saved as a draft template. */
  async write(payload: WriteOptions, options: RequestOptions = {}): Promise<MailroomResponse<WriteResponse>> {
    return this.transport.request({ ...options, method: "POST", path: "/ai/write", body: payload });
  }
}
