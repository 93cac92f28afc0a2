// The audit log (docs/teams.md, scope audit:read): who changed what in the organisation — keys, domains, templates,
// webhooks, suppressions, members, invitations, settings, pauses, queue actions — and every sign-in, failed sign-in
// and sign-out, newest first. Append-only; it never holds a secret, a token or a password.
package mailroom

import (
	"context"
	"net/http"
	"net/url"
)

// AuditEvent (generated.go) is one entry of the audit log: who (Actor) did what (Action, "<object>.<verb>" such as
// "member.invited"), to what (Target, nil for an action that concerns no one object), from where (Ip, UserAgent).

// ListAuditLogOptions pages the log, newest first (After an id continues towards older events, Before goes back
// towards newer ones), and filters it by Action ("member.invited") and by ActorId (an event's Actor.Id).
type ListAuditLogOptions struct {
	Limit   int
	After   string
	Before  string
	Action  string
	ActorId string
}

// AuditLogService reads the audit log.
type AuditLogService struct {
	client *Client
}

// List answers the organisation's events, newest first (options may be nil).
func (s *AuditLogService) List(options *ListAuditLogOptions) (*List[AuditEvent], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext answers the organisation's events, newest first (options may be nil).
func (s *AuditLogService) ListWithContext(ctx context.Context, options *ListAuditLogOptions) (*List[AuditEvent], error) {
	query := url.Values{}
	if options != nil {
		setPage(query, options.Limit, options.After, options.Before)
		setIf(query, "action", options.Action)
		setIf(query, "actor_id", options.ActorId)
	}
	return fetch[List[AuditEvent]](ctx, s.client, call{method: http.MethodGet, path: "audit-log", query: query})
}
