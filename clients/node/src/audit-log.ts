/**
 * `mailroom.auditLog`: who changed what in the organisation (docs/teams.md) — keys, domains, templates, webhooks,
 * suppressions, members, invitations, settings, pauses, queue actions — and every sign-in, failed sign-in and
 * sign-out, newest first. Append-only; never holds a secret, a token or a password. Needs the `audit:read` scope
 * (`full_access` has it; among people, owners and admins).
 */
import type { Transport } from "./http.js";
import type { AuditEvent, List, ListAuditLogOptions, MailroomResponse, RequestOptions } from "./types.js";

export class AuditLog {
  constructor(private readonly transport: Transport) {}

  /** The organisation's events, newest first; filter by `action` (`member.invited`) and by `actor_id`. */
  async list(
    options: ListAuditLogOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<AuditEvent>>> {
    const { limit, after, before, action, actor_id } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: "/audit-log",
      query: { limit, after, before, action, actor_id },
    });
  }
}
