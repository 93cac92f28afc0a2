// The request log (docs/logs-and-mcp.md#the-request-log, Resend's logs): every API request made with a key, with its
// bodies, secrets replaced by "[redacted]". Entries are written shortly after the answer, not with it.
package mailroom

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
)

// ListLogsOptions pages through the log, newest first, and filters it: Status (an HTTP status), Method ("POST"…),
// ApiKeyId, Endpoint (a path as entries name it, or its start at a "/": "/emails" is /emails and /emails/<id>).
type ListLogsOptions struct {
	Limit    int
	After    string
	Before   string
	Status   int
	Method   string
	ApiKeyId string
	Endpoint string
}

func (o *ListLogsOptions) values() url.Values {
	query := url.Values{}
	if o != nil {
		setPage(query, o.Limit, o.After, o.Before)
		if o.Status > 0 {
			query.Set("status", strconv.Itoa(o.Status))
		}
		setIf(query, "method", o.Method)
		setIf(query, "api_key_id", o.ApiKeyId)
		setIf(query, "endpoint", o.Endpoint)
	}
	return query
}

// LogsService reads the request log (scope logs:read). A test key reads test keys' requests only.
type LogsService struct {
	client *Client
}

// List lists logged requests, newest first, without their bodies (options may be nil).
func (s *LogsService) List(options *ListLogsOptions) (*List[LogListItem], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists logged requests, newest first, without their bodies (options may be nil).
func (s *LogsService) ListWithContext(ctx context.Context, options *ListLogsOptions) (*List[LogListItem], error) {
	return fetch[List[LogListItem]](ctx, s.client, call{method: http.MethodGet, path: "logs", query: options.values()})
}

// Get gets one logged request with its request and response bodies.
func (s *LogsService) Get(logId string) (*Log, error) {
	return s.GetWithContext(context.Background(), logId)
}

// GetWithContext gets one logged request with its request and response bodies.
func (s *LogsService) GetWithContext(ctx context.Context, logId string) (*Log, error) {
	if err := required("logId", logId); err != nil {
		return nil, err
	}
	return fetch[Log](ctx, s.client, call{method: http.MethodGet, path: "logs/" + escape(logId)})
}
