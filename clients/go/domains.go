// Sending domains (DESIGN §5): create (answers the DNS records to publish), get, list, update, verify now, remove;
// and (DESIGN §14) their tracking host, TLS policy, Ed25519 DKIM key and IP pool, their sending health, and the DMARC
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

// CreateDomainRequest adds a sending domain. Nil pointers leave the server's defaults.
type CreateDomainRequest struct {
	Name string `json:"name"`
	// ReturnPathSubdomain names the subdomain of the return path and its SPF and MX records (default "send").
	ReturnPathSubdomain string `json:"return_path_subdomain,omitempty"`
	OpenTracking        *bool  `json:"open_tracking,omitempty"`
	ClickTracking       *bool  `json:"click_tracking,omitempty"`
	// ReceivingEnabled accepts inbound mail for the domain (adds the Inbound MX record).
	ReceivingEnabled *bool `json:"receiving_enabled,omitempty"`
	// Providers take the domain's mail, first choice first; empty: the server's default provider.
	Providers []string `json:"providers,omitempty"`
	// TrackingSubdomain is the label of a tracking host ("links" → links.<domain>): its CNAME joins the records.
	TrackingSubdomain string `json:"tracking_subdomain,omitempty"`
	// Tls is TlsOpportunistic (the default) or TlsEnforced.
	Tls string `json:"tls,omitempty"`
	// Dkim with Ed25519 true adds an Ed25519 key beside the RSA one.
	Dkim *DomainDkim `json:"dkim,omitempty"`
	// IpPool names the configured [ip_pools.<name>] direct delivery sends from (an unknown one is a
	// validation_error); empty: none.
	IpPool string `json:"ip_pool,omitempty"`
}

// UpdateDomainRequest changes a domain's settings; nil and empty fields are left as they are.
type UpdateDomainRequest struct {
	ReturnPathSubdomain string   `json:"return_path_subdomain,omitempty"`
	OpenTracking        *bool    `json:"open_tracking,omitempty"`
	ClickTracking       *bool    `json:"click_tracking,omitempty"`
	ReceivingEnabled    *bool    `json:"receiving_enabled,omitempty"`
	Providers           []string `json:"providers,omitempty"`
	// TrackingSubdomain sets the tracking host with Value("links"): the CNAME of links.<domain> joins the records,
	// and once DNS shows it the domain's open, click and unsubscribe links use https://links.<domain>.
	// Null[string]() removes it; nil leaves it as it is.
	TrackingSubdomain *Nullable[string] `json:"tracking_subdomain,omitempty"`
	// Tls is TlsOpportunistic or TlsEnforced; empty leaves it as it is.
	Tls string `json:"tls,omitempty"`
	// Dkim with Ed25519 true adds an Ed25519 key (RFC 8463) beside the RSA one, signing once its record is found;
	// false retires it. Nil leaves it as it is.
	Dkim *DomainDkim `json:"dkim,omitempty"`
	// IpPool names, with Value("main"), the configured [ip_pools.<name>] whose addresses direct delivery of the
	// domain's mail binds, with their warm-up (an unknown name is a validation_error). Null[string]() returns the
	// domain to the machine's default address; nil leaves it as it is.
	IpPool *Nullable[string] `json:"ip_pool,omitempty"`
}

// Domain is a sending domain with the DNS records to publish and their status.
type Domain struct {
	Object              string             `json:"object"`
	Id                  string             `json:"id"`
	Name                string             `json:"name"`
	Status              string             `json:"status"`
	VerifiedOverride    bool               `json:"verified_override"`
	OpenTracking        bool               `json:"open_tracking"`
	ClickTracking       bool               `json:"click_tracking"`
	ReturnPathSubdomain string             `json:"return_path_subdomain"`
	ReceivingEnabled    bool               `json:"receiving_enabled"`
	Providers           []string           `json:"providers"`
	Capabilities        DomainCapabilities `json:"capabilities"`
	Records             []DomainRecord     `json:"records"`
	Dkim                DomainDkim         `json:"dkim"`
	// TrackingSubdomain is the tracking host's label ("links"); empty: the domain's links use the server's host.
	TrackingSubdomain string `json:"tracking_subdomain"`
	// Tls is the domain's TLS policy: TlsOpportunistic or TlsEnforced.
	Tls string `json:"tls"`
	// IpPool is the [ip_pools.<name>] direct delivery sends from; empty: the machine's default address.
	IpPool string `json:"ip_pool"`
	// Health is the domain's bounce and complaint rates over the guardrails' window, and what they led to.
	Health        DomainHealth `json:"health"`
	LastCheckedAt string       `json:"last_checked_at"`
	CreatedAt     string       `json:"created_at"`
	UpdatedAt     string       `json:"updated_at"`
}

// DomainDkim is a domain's DKIM signing beyond the RSA key it always has: Ed25519 adds an Ed25519-SHA256 signature
// (RFC 8463), with its own selector and record, once that record is found.
type DomainDkim struct {
	Ed25519 bool `json:"ed25519"`
}

// DomainHealth is a domain's or the organisation's sending health, as the guardrails last measured it: the
// bounce and complaint rates (0–1) of the Recipients that ended in the Window ("24h"), and the Status they led to
// (HealthOk, HealthWarning, HealthPaused) with its Reason ("bounce rate 9.1 % over 24 h"; empty when ok).
// EvaluatedAt is empty before the first measurement.
type DomainHealth struct {
	BounceRate    float64 `json:"bounce_rate"`
	ComplaintRate float64 `json:"complaint_rate"`
	Window        string  `json:"window"`
	Recipients    int     `json:"recipients"`
	Status        string  `json:"status"`
	Reason        string  `json:"reason"`
	EvaluatedAt   string  `json:"evaluated_at"`
}

// DomainCapabilities is Resend's spelling of what a domain does: sending and receiving, "enabled" or "disabled".
type DomainCapabilities struct {
	Sending   string `json:"sending"`
	Receiving string `json:"receiving"`
}

// DomainRecord is a DNS record to publish (DKIM, SPF, MX, DMARC, Inbound, or Tracking: the tracking host's CNAME)
// and what the last check found.
type DomainRecord struct {
	Record   string `json:"record"`
	Name     string `json:"name"`
	Type     string `json:"type"`
	Value    string `json:"value"`
	Priority int    `json:"priority,omitempty"`
	Ttl      string `json:"ttl"`
	Status   string `json:"status"`
	// Found is what DNS answered at the record's name at the last check (TXT values, "priority host" for MX, CNAME
	// targets); nil when nothing was found or the record was not checked yet.
	Found []string `json:"found,omitempty"`
	// Warning says why the record as shown cannot work yet (the server's hostname is unset).
	Warning string `json:"warning,omitempty"`
	// KeyState (DKIM only): "active" signs now; "next" is a rotation's new key.
	KeyState string `json:"key_state,omitempty"`
}

// RemoveDomainOptions: Force removes a domain even while mail from it is queued (that mail then fails).
type RemoveDomainOptions struct {
	Force bool
}

// RemoveDomainResponse answers a domain's removal.
type RemoveDomainResponse struct {
	Object  string `json:"object"`
	Id      string `json:"id"`
	Name    string `json:"name"`
	Deleted bool   `json:"deleted"`
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

// DmarcRow is one row of a DMARC aggregate report: Count messages from SourceIp, the Disposition the receiver
// applied ("none", "quarantine" or "reject"), and DKIM and SPF as DMARC evaluated them ("pass" or "fail").
type DmarcRow struct {
	SourceIp    string `json:"source_ip"`
	Count       int    `json:"count"`
	Disposition string `json:"disposition"`
	Dkim        string `json:"dkim"`
	Spf         string `json:"spf"`
	HeaderFrom  string `json:"header_from"`
}

// DmarcReport is a DMARC aggregate report (RFC 7489 §7.2) a receiver (Reporter) sent about the domain to the rua
// of its DMARC record, covering Begin to End (ISO 8601, UTC). Rows are its first 20 at most, heaviest source first;
// RowCount is how many it has, the rest read with DmarcReportRows.
type DmarcReport struct {
	Object   string     `json:"object"`
	Id       string     `json:"id"`
	Reporter string     `json:"reporter"`
	ReportId string     `json:"report_id"`
	Begin    string     `json:"begin"`
	End      string     `json:"end"`
	Rows     []DmarcRow `json:"rows"`
	RowCount int        `json:"row_count"`
}

// DmarcReportRow is a row as DmarcReportRows pages them: its Id is the pages' cursor.
type DmarcReportRow struct {
	Id string `json:"id"`
	DmarcRow
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

// DmarcSource is one address that sent as the domain over the summary's days: its Messages, the share of them
// (0–1) that passed DKIM or SPF aligned, and whether it is one of Mailroom's (Own: public_ips, or the domain's SPF
// at its return path passes for it).
type DmarcSource struct {
	SourceIp        string  `json:"source_ip"`
	Messages        int     `json:"messages"`
	AlignedPassRate float64 `json:"aligned_pass_rate"`
	Own             bool    `json:"own"`
}

// DmarcSummary is who sends as the domain: its reports of the last Days (Reports of them) summed per source
// address, most messages first.
type DmarcSummary struct {
	Object  string        `json:"object"`
	Domain  string        `json:"domain"`
	Days    int           `json:"days"`
	Reports int           `json:"reports"`
	Data    []DmarcSource `json:"data"`
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
