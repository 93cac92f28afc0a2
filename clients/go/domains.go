// Sending domains (docs/domains.md): create (answers the DNS records to publish), get, list, update, verify now, remove;
// and (docs/deliverability.md) their tracking host, TLS policy, Ed25519 DKIM key and IP pool, their sending health, and the DMARC
// aggregate reports receivers sent about them.
package mailroom

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
)

// TLS policies of a domain (Domain.Tls, UpdateDomainRequest.Tls): TlsOpportunistic, the default, uses STARTTLS when
// the receiver offers it; TlsEnforced delivers directly to MX hosts only over STARTTLS with a certificate valid for
// the MX name, else the mail is deferred, then bounced with the reason.
const (
	TlsOpportunistic = "opportunistic"
	TlsEnforced      = "enforced"
)

// Statuses of a domain's or the organisation's sending health (DomainHealth.Status): past a guardrail's warning
// threshold a domain is HealthWarning, past its pause threshold HealthPaused (Sending.Get lists the pause, and a
// person resumes it).
const (
	HealthOk      = "ok"
	HealthWarning = "warning"
	HealthPaused  = "paused"
)

// A domain's shapes are the document's (generated.go): Domain, a sending domain with the DNS records to publish
// (DomainRecord) and their status, its Capabilities (Resend's spelling), Dkim and Health (DomainHealth); and the
// bodies that create and change one, under the names this client has always used.
type (
	// CreateDomainRequest adds a sending domain. Nil pointers leave the server's defaults; Dkim with Ed25519
	// Bool(true) adds an Ed25519 key beside the RSA one; IpPool names a configured [ip_pools.<name>] (an unknown one
	// is a validation_error).
	CreateDomainRequest = CreateDomainOptions
	// UpdateDomainRequest changes a domain's settings; nil and empty fields are left as they are.
	// TrackingSubdomain and IpPool take Value("…") to set and Null[string]() to remove; Dkim with Ed25519
	// Bool(false) retires the Ed25519 key.
	UpdateDomainRequest = UpdateDomainOptions
	// RemoveDomainResponse answers a domain's removal.
	RemoveDomainResponse = DomainDeleted
)

// RemoveDomainOptions: Force removes a domain even while mail from it is queued (that mail then fails).
type RemoveDomainOptions struct {
	Force bool
}

// DomainsService manages sending domains. Wherever a domain id goes, its name works too.
type DomainsService struct {
	client *Client
}

// Create adds a sending domain; the answer lists the DNS records to publish.
func (s *DomainsService) Create(params *CreateDomainRequest) (*Domain, error) {
	return s.CreateWithContext(context.Background(), params)
}

// CreateWithContext adds a sending domain; the answer lists the DNS records to publish.
func (s *DomainsService) CreateWithContext(ctx context.Context, params *CreateDomainRequest) (*Domain, error) {
	return fetch[Domain](ctx, s.client, call{method: http.MethodPost, path: "domains", body: params})
}

// Get gets a domain by id or name.
func (s *DomainsService) Get(domainId string) (*Domain, error) {
	return s.GetWithContext(context.Background(), domainId)
}

// GetWithContext gets a domain by id or name.
func (s *DomainsService) GetWithContext(ctx context.Context, domainId string) (*Domain, error) {
	if err := required("domainId", domainId); err != nil {
		return nil, err
	}
	return fetch[Domain](ctx, s.client, call{method: http.MethodGet, path: "domains/" + escape(domainId)})
}

// List lists sending domains, newest first (options may be nil).
func (s *DomainsService) List(options *ListOptions) (*List[Domain], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists sending domains, newest first (options may be nil).
func (s *DomainsService) ListWithContext(ctx context.Context, options *ListOptions) (*List[Domain], error) {
	return fetch[List[Domain]](ctx, s.client, call{method: http.MethodGet, path: "domains", query: options.values()})
}

// Update changes a domain's tracking defaults, return-path subdomain, receiving, providers, tracking host, TLS
// policy, Ed25519 key or IP pool.
func (s *DomainsService) Update(domainId string, params *UpdateDomainRequest) (*Domain, error) {
	return s.UpdateWithContext(context.Background(), domainId, params)
}

// UpdateWithContext changes a domain's tracking defaults, return-path subdomain, receiving, providers, tracking
// host, TLS policy, Ed25519 key or IP pool.
func (s *DomainsService) UpdateWithContext(ctx context.Context, domainId string, params *UpdateDomainRequest) (*Domain, error) {
	if err := required("domainId", domainId); err != nil {
		return nil, err
	}
	if params == nil {
		params = &UpdateDomainRequest{}
	}
	return fetch[Domain](ctx, s.client, call{method: http.MethodPatch, path: "domains/" + escape(domainId), body: params})
}

// Verify checks the domain's DNS records now and answers the domain with their status.
func (s *DomainsService) Verify(domainId string) (*Domain, error) {
	return s.VerifyWithContext(context.Background(), domainId)
}

// VerifyWithContext checks the domain's DNS records now and answers the domain with their status.
func (s *DomainsService) VerifyWithContext(ctx context.Context, domainId string) (*Domain, error) {
	if err := required("domainId", domainId); err != nil {
		return nil, err
	}
	return fetch[Domain](ctx, s.client, call{method: http.MethodPost, path: "domains/" + escape(domainId) + "/verify"})
}

// Remove deletes a domain; refused (409 conflict) while mail from it is queued.
func (s *DomainsService) Remove(domainId string) (*RemoveDomainResponse, error) {
	return s.RemoveWithOptions(context.Background(), domainId, nil)
}

// RemoveWithContext deletes a domain; refused (409 conflict) while mail from it is queued.
func (s *DomainsService) RemoveWithContext(ctx context.Context, domainId string) (*RemoveDomainResponse, error) {
	return s.RemoveWithOptions(ctx, domainId, nil)
}

// RemoveWithOptions deletes a domain, with Force even while mail from it is queued.
func (s *DomainsService) RemoveWithOptions(ctx context.Context, domainId string, options *RemoveDomainOptions) (*RemoveDomainResponse, error) {
	if err := required("domainId", domainId); err != nil {
		return nil, err
	}
	query := url.Values{}
	if options != nil && options.Force {
		query.Set("force", "true")
	}
	return fetch[RemoveDomainResponse](ctx, s.client, call{method: http.MethodDelete, path: "domains/" + escape(domainId), query: query})
}

// ListDmarcReportsOptions pages the reports, newest first: Limit 1–100 (0: the server's default, 20), After a
// report's id for the reports older than it, Before one for the reports newer than it.
type ListDmarcReportsOptions struct {
	Limit  int
	After  string
	Before string
}

// DmarcSummaryOptions: Days is how many days back to sum, 1–90 (0: the server's default, 7).
type DmarcSummaryOptions struct {
	Days int
}

// DmarcReports lists the DMARC aggregate reports receivers sent about the domain, newest period first (options may
// be nil). Empty until the domain is verified.
func (s *DomainsService) DmarcReports(domainId string, options *ListDmarcReportsOptions) (*List[DmarcReport], error) {
	return s.DmarcReportsWithContext(context.Background(), domainId, options)
}

// DmarcReportsWithContext lists the DMARC aggregate reports receivers sent about the domain, newest period first
// (options may be nil). Empty until the domain is verified.
func (s *DomainsService) DmarcReportsWithContext(ctx context.Context, domainId string, options *ListDmarcReportsOptions) (*List[DmarcReport], error) {
	if err := required("domainId", domainId); err != nil {
		return nil, err
	}
	query := url.Values{}
	if options != nil {
		setPage(query, options.Limit, options.After, options.Before)
	}
	return fetch[List[DmarcReport]](ctx, s.client, call{method: http.MethodGet, path: "domains/" + escape(domainId) + "/dmarc", query: query})
}

// DmarcReportRows pages through the rows of one DMARC report (options may be nil: the first 20).
func (s *DomainsService) DmarcReportRows(domainId, reportId string, options *ListOptions) (*List[DmarcReportRow], error) {
	return s.DmarcReportRowsWithContext(context.Background(), domainId, reportId, options)
}

// DmarcReportRowsWithContext pages through the rows of one DMARC report (options may be nil: the first 20).
func (s *DomainsService) DmarcReportRowsWithContext(ctx context.Context, domainId, reportId string, options *ListOptions) (*List[DmarcReportRow], error) {
	if err := required("domainId", domainId); err != nil {
		return nil, err
	}
	if err := required("reportId", reportId); err != nil {
		return nil, err
	}
	path := "domains/" + escape(domainId) + "/dmarc/" + escape(reportId) + "/rows"
	return fetch[List[DmarcReportRow]](ctx, s.client, call{method: http.MethodGet, path: path, query: options.values()})
}

// DmarcSummary sums the domain's DMARC reports of the last days per source address (options may be nil: 7 days).
func (s *DomainsService) DmarcSummary(domainId string, options *DmarcSummaryOptions) (*DmarcSummary, error) {
	return s.DmarcSummaryWithContext(context.Background(), domainId, options)
}

// DmarcSummaryWithContext sums the domain's DMARC reports of the last days per source address (options may be
// nil: 7 days).
func (s *DomainsService) DmarcSummaryWithContext(ctx context.Context, domainId string, options *DmarcSummaryOptions) (*DmarcSummary, error) {
	if err := required("domainId", domainId); err != nil {
		return nil, err
	}
	query := url.Values{}
	if options != nil && options.Days != 0 {
		query.Set("days", strconv.Itoa(options.Days))
	}
	return fetch[DmarcSummary](ctx, s.client, call{method: http.MethodGet, path: "domains/" + escape(domainId) + "/dmarc/summary", query: query})
}
