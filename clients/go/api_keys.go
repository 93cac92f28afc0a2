// API keys (DESIGN §3): create (the token is answered once), list, rename (Update), remove (revoke).
package mailroom

import (
	"context"
	"net/http"
	"net/url"
)

// Permissions of a new key (Resend's presets).
const (
	PermissionFullAccess    = "full_access"
	PermissionSendingAccess = "sending_access"
)

// CreateApiKeyRequest creates a key. Permission is a preset (default full_access); Scopes choose fine-grained
// scopes instead; DomainId or Domains restrict sending to those domains; Mode is "live" (default) or "test";
// RateLimit overrides the requests per minute of this key; DailyQuota caps the live messages it may send per UTC
// day (0: none of its own).
type CreateApiKeyRequest struct {
	Name       string   `json:"name"`
	Permission string   `json:"permission,omitempty"`
	DomainId   string   `json:"domain_id,omitempty"`
	Scopes     []string `json:"scopes,omitempty"`
	Mode       string   `json:"mode,omitempty"`
	Domains    []string `json:"domains,omitempty"`
	RateLimit  int      `json:"rate_limit,omitempty"`
	DailyQuota int      `json:"daily_quota,omitempty"`
}

// ApiKey describes a key; the token itself is only in CreateApiKeyResponse.
type ApiKey struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	Name   string `json:"name"`
	Mode   string `json:"mode"`
	// TokenPrefix is enough of the token to recognise it, never enough to use it.
	TokenPrefix        string   `json:"token_prefix"`
	Scopes             []string `json:"scopes"`
	Domains            []string `json:"domains"`
	RateLimitPerMinute int      `json:"rate_limit_per_minute"`
	// DailyQuota is the live messages per UTC day this key may send; nil: none of its own.
	DailyQuota *int   `json:"daily_quota"`
	CreatedAt  string `json:"created_at"`
	LastUsedAt string `json:"last_used_at"`
	RevokedAt  string `json:"revoked_at"`
}

// CreateApiKeyResponse answers a create: Resend's {id, token} with the key's record. Keep Token now: it is never
// shown again.
type CreateApiKeyResponse struct {
	ApiKey
	Token string `json:"token"`
}

// ListApiKeysOptions pages the list of keys; IncludeRevoked adds revoked ones.
type ListApiKeysOptions struct {
	Limit          int
	After          string
	Before         string
	IncludeRevoked bool
}

// UpdateApiKeyRequest renames a key.
type UpdateApiKeyRequest struct {
	Name string `json:"name"`
}

// ApiKeysService manages API keys.
type ApiKeysService struct {
	client *Client
}

// Create creates an API key.
func (s *ApiKeysService) Create(params *CreateApiKeyRequest) (*CreateApiKeyResponse, error) {
	return s.CreateWithContext(context.Background(), params)
}

// CreateWithContext creates an API key.
func (s *ApiKeysService) CreateWithContext(ctx context.Context, params *CreateApiKeyRequest) (*CreateApiKeyResponse, error) {
	return fetch[CreateApiKeyResponse](ctx, s.client, call{method: http.MethodPost, path: "api-keys", body: params})
}

// List lists active API keys, newest first (options may be nil).
func (s *ApiKeysService) List(options *ListApiKeysOptions) (*List[ApiKey], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists active API keys, newest first (options may be nil).
func (s *ApiKeysService) ListWithContext(ctx context.Context, options *ListApiKeysOptions) (*List[ApiKey], error) {
	query := url.Values{}
	if options != nil {
		setPage(query, options.Limit, options.After, options.Before)
		if options.IncludeRevoked {
			query.Set("include_revoked", "true")
		}
	}
	return fetch[List[ApiKey]](ctx, s.client, call{method: http.MethodGet, path: "api-keys", query: query})
}

// Update renames an API key.
func (s *ApiKeysService) Update(apiKeyId string, params *UpdateApiKeyRequest) (*ObjectRef, error) {
	return s.UpdateWithContext(context.Background(), apiKeyId, params)
}

// UpdateWithContext renames an API key.
func (s *ApiKeysService) UpdateWithContext(ctx context.Context, apiKeyId string, params *UpdateApiKeyRequest) (*ObjectRef, error) {
	if err := required("apiKeyId", apiKeyId); err != nil {
		return nil, err
	}
	return fetch[ObjectRef](ctx, s.client, call{method: http.MethodPatch, path: "api-keys/" + escape(apiKeyId), body: params})
}

// Remove revokes an API key: it stops working at once.
func (s *ApiKeysService) Remove(apiKeyId string) (*DeletedObject, error) {
	return s.RemoveWithContext(context.Background(), apiKeyId)
}

// RemoveWithContext revokes an API key: it stops working at once.
func (s *ApiKeysService) RemoveWithContext(ctx context.Context, apiKeyId string) (*DeletedObject, error) {
	if err := required("apiKeyId", apiKeyId); err != nil {
		return nil, err
	}
	return fetch[DeletedObject](ctx, s.client, call{method: http.MethodDelete, path: "api-keys/" + escape(apiKeyId)})
}
