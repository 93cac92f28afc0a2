// Sending domains (DESIGN §5): create (answers the DNS records to publish), get, list, update, verify now, remove.
package mailroom

import (
	"context"
	"net/http"
	"net/url"
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
}

// UpdateDomainRequest changes a domain's settings; nil and empty fields are left as they are.
type UpdateDomainRequest struct {
	ReturnPathSubdomain string   `json:"return_path_subdomain,omitempty"`
	OpenTracking        *bool    `json:"open_tracking,omitempty"`
	ClickTracking       *bool    `json:"click_tracking,omitempty"`
	ReceivingEnabled    *bool    `json:"receiving_enabled,omitempty"`
	Providers           []string `json:"providers,omitempty"`
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
	LastCheckedAt       string             `json:"last_checked_at"`
	CreatedAt           string             `json:"created_at"`
	UpdatedAt           string             `json:"updated_at"`
}

// DomainCapabilities is Resend's spelling of what a domain does: sending and receiving, "enabled" or "disabled".
type DomainCapabilities struct {
	Sending   string `json:"sending"`
	Receiving string `json:"receiving"`
}

// DomainRecord is a DNS record to publish (DKIM, SPF, MX, DMARC, Inbound) and what the last check found.
type DomainRecord struct {
	Record   string `json:"record"`
	Name     string `json:"name"`
	Type     string `json:"type"`
	Value    string `json:"value"`
	Priority int    `json:"priority,omitempty"`
	Ttl      string `json:"ttl"`
	Status   string `json:"status"`
	Found    string `json:"found,omitempty"`
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

// Update changes a domain's tracking defaults, return-path subdomain, receiving or providers.
func (s *DomainsService) Update(domainId string, params *UpdateDomainRequest) (*Domain, error) {
	return s.UpdateWithContext(context.Background(), domainId, params)
}

// UpdateWithContext changes a domain's tracking defaults, return-path subdomain, receiving or providers.
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
