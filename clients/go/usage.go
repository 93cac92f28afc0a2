// Usage and email metrics (docs/logs-and-mcp.md#usage-and-metrics, Resend's usage.get and emails.metrics): the
// organisation's figures against its limits, and counts and rates of its mail over a range of dates.
package mailroom

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// UsageService reads the organisation's usage (scope organization:read; live keys only).
type UsageService struct {
	client *Client
}

// Get answers emails sent today and this month against their limits, received mail, domains, contacts, segments,
// broadcasts and the rate limit.
func (s *UsageService) Get() (*Usage, error) {
	return s.GetWithContext(context.Background())
}

// GetWithContext answers emails sent today and this month against their limits, received mail, domains, contacts,
// segments, broadcasts and the rate limit.
func (s *UsageService) GetWithContext(ctx context.Context) (*Usage, error) {
	return fetch[Usage](ctx, s.client, call{method: http.MethodGet, path: "usage"})
}

// Metrics granularities (EmailMetricsOptions.Granularity).
const (
	GranularityHourly  = "hourly"
	GranularityDaily   = "daily"
	GranularityWeekly  = "weekly"
	GranularityMonthly = "monthly"
)

// EmailMetricsOptions chooses the range and the figures of Emails.Metrics; every field is optional.
type EmailMetricsOptions struct {
	// StartDate and EndDate are ISO dates or date-times (default: the 6 days before now; a date as EndDate is the
	// whole day; at most 90 days).
	StartDate string
	EndDate   string
	// Timezone: periods are UTC; another zone is refused.
	Timezone    string
	Granularity string
	// Metrics names the figures wanted (default: all), e.g. "sent", "delivered", "open_rate".
	Metrics []string
	// Dimensions: "period" adds one row per Granularity.
	Dimensions []string
	// DomainId, EmailId and BroadcastId filters are refused with validation_error until the server supports them.
	DomainId    string
	EmailId     string
	BroadcastId string
}

func (o *EmailMetricsOptions) values() url.Values {
	query := url.Values{}
	if o == nil {
		return query
	}
	setIf(query, "start_date", o.StartDate)
	setIf(query, "end_date", o.EndDate)
	setIf(query, "timezone", o.Timezone)
	setIf(query, "granularity", o.Granularity)
	setIf(query, "metrics", strings.Join(o.Metrics, ","))
	setIf(query, "dimensions", strings.Join(o.Dimensions, ","))
	setIf(query, "domain_id", o.DomainId)
	setIf(query, "email_id", o.EmailId)
	setIf(query, "broadcast_id", o.BroadcastId)
	return query
}

// Metrics answers the organisation's email figures over a range: totals, and with Dimensions ["period"] one row
// per period (scope emails:read). Rates are fractions from 0 to 1.
func (s *EmailsService) Metrics(options *EmailMetricsOptions) (*EmailMetrics, error) {
	return s.MetricsWithContext(context.Background(), options)
}

// MetricsWithContext answers the organisation's email figures over a range: totals, and with Dimensions
// ["period"] one row per period (scope emails:read). Rates are fractions from 0 to 1.
func (s *EmailsService) MetricsWithContext(ctx context.Context, options *EmailMetricsOptions) (*EmailMetrics, error) {
	return fetch[EmailMetrics](ctx, s.client, call{method: http.MethodGet, path: "emails/metrics", query: options.values()})
}
