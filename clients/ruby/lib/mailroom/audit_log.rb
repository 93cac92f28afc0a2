# frozen_string_literal: true

# The audit log (docs/teams.md): who changed what in the organisation — keys, domains, templates, webhooks,
# suppressions, members, invitations, settings, pauses, queue actions — and every sign-in, failed sign-in and
# sign-out. Append-only; it never holds a secret, a token or a password. Needs the audit:read scope (full_access
# includes it).
module Mailroom
  class AuditLog < Resource
    # GET /v1/audit-log, newest first. params: limit, after (towards older events), before (back towards newer ones),
    # action ("member.invited"), actor_id (an event's actor[:id]). Each event: { object: "audit_event", id:,
    # created_at:, organization_id:, actor: { type:, id:, name: }, action:, target: { type:, id:, name: } (or nil),
    # ip:, user_agent:, changes: }; actor type "user", "api_key", "cli" or "system".
    def list(params = {})
      http_get("/audit-log", query(params))
    end
  end
end
