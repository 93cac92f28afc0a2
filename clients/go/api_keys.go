// API keys (docs/keys-and-limits.md): create (the token is answered once), list, rename (Update), remove (revoke).
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
// day (0: none of its own). The document's CreateApiKeyOptions, as ApiKey (the token itself is only in
// CreateApiKeyResponse: keep it, it is never shown again) and the other shapes of keys are (generated.go).
type CreateApiKeyRequest = CreateApiKeyOptions

// ListApiKeysOptions pages the list of keys; IncludeRevoked adds revoked ones.
type ListApiKeysOptions struct {
	Limit          int
	After          string
	Before         string
	IncludeRevoked bool
}

// UpdateApiKeyRequest renames a key.
type UpdateApiKeyRequest = UpdateApiKeyOptions

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
