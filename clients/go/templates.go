// Saved templates (docs/templates-and-ai.md#templates, Resend's shape): create, get by id or alias, list, update, remove, publish,
// duplicate, render a preview and validate a source. Sends use a template's published version.
package mailroom

import (
	"context"
	"net/http"
)

// Template engines.
const (
	TemplateEngineHandlebars = "handlebars"
	TemplateEngineMjml       = "mjml"
)

// A template's shapes are the document's (generated.go): Template, a template's current version (list items,
// TemplateSummary, carry only Id, Name, Alias, Status, Engine and the times), its TemplateVariables (Type "string"
// or "number", FallbackValue used when a send gives none), RenderedTemplate, a rendered preview, and
// TemplateValidation, Valid or each problem at its line and column of the field; and the bodies, under the names
// this client has always used.
type (
	// CreateTemplateRequest creates a draft template. Alias may be used wherever the id goes. Engine is handlebars
	// (default) or mjml (also chosen when Html's root is <mjml>); each of Variables is a CreateTemplateOptionsVariable.
	CreateTemplateRequest = CreateTemplateOptions
	// UpdateTemplateRequest edits a template's draft; nil and empty fields are left as they are, Value("…") sets
	// one and Null[string]() clears it. Variables, when given, replace the declared ones.
	UpdateTemplateRequest = UpdateTemplateOptions
	// RenderTemplateRequest gives the variables of a preview.
	RenderTemplateRequest = RenderTemplateOptions
	// ValidateTemplateRequest is a source to check without saving it.
	ValidateTemplateRequest = ValidateTemplateOptions
	// TemplateProblem is one problem of a template source.
	TemplateProblem = TemplateValidationError
)

// TemplatesService manages saved templates. Wherever a template id goes, its alias works too.
type TemplatesService struct {
	client *Client
}

func templatePath(idOrAlias string, rest string) string {
	return "templates/" + escape(idOrAlias) + rest
}

// Create creates a draft template.
func (s *TemplatesService) Create(params *CreateTemplateRequest) (*ObjectRef, error) {
	return s.CreateWithContext(context.Background(), params)
}

// CreateWithContext creates a draft template.
func (s *TemplatesService) CreateWithContext(ctx context.Context, params *CreateTemplateRequest) (*ObjectRef, error) {
	return fetch[ObjectRef](ctx, s.client, call{method: http.MethodPost, path: "templates", body: params})
}

// Get gets a template by id or alias.
func (s *TemplatesService) Get(idOrAlias string) (*Template, error) {
	return s.GetWithContext(context.Background(), idOrAlias)
}

// GetWithContext gets a template by id or alias.
func (s *TemplatesService) GetWithContext(ctx context.Context, idOrAlias string) (*Template, error) {
	if err := required("idOrAlias", idOrAlias); err != nil {
		return nil, err
	}
	return fetch[Template](ctx, s.client, call{method: http.MethodGet, path: templatePath(idOrAlias, "")})
}

// List lists templates, newest first (options may be nil).
func (s *TemplatesService) List(options *ListOptions) (*List[Template], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists templates, newest first (options may be nil).
func (s *TemplatesService) ListWithContext(ctx context.Context, options *ListOptions) (*List[Template], error) {
	return fetch[List[Template]](ctx, s.client, call{method: http.MethodGet, path: "templates", query: options.values()})
}

// Update edits a template's draft; sends keep the published version until the next Publish.
func (s *TemplatesService) Update(idOrAlias string, params *UpdateTemplateRequest) (*ObjectRef, error) {
	return s.UpdateWithContext(context.Background(), idOrAlias, params)
}

// UpdateWithContext edits a template's draft; sends keep the published version until the next Publish.
func (s *TemplatesService) UpdateWithContext(ctx context.Context, idOrAlias string, params *UpdateTemplateRequest) (*ObjectRef, error) {
	if err := required("idOrAlias", idOrAlias); err != nil {
		return nil, err
	}
	if params == nil {
		params = &UpdateTemplateRequest{}
	}
	return fetch[ObjectRef](ctx, s.client, call{method: http.MethodPatch, path: templatePath(idOrAlias, ""), body: params})
}

// Remove deletes a template.
func (s *TemplatesService) Remove(idOrAlias string) (*DeletedObject, error) {
	return s.RemoveWithContext(context.Background(), idOrAlias)
}

// RemoveWithContext deletes a template.
func (s *TemplatesService) RemoveWithContext(ctx context.Context, idOrAlias string) (*DeletedObject, error) {
	if err := required("idOrAlias", idOrAlias); err != nil {
		return nil, err
	}
	return fetch[DeletedObject](ctx, s.client, call{method: http.MethodDelete, path: templatePath(idOrAlias, "")})
}

// Publish makes the current version the one sends use.
func (s *TemplatesService) Publish(idOrAlias string) (*ObjectRef, error) {
	return s.PublishWithContext(context.Background(), idOrAlias)
}

// PublishWithContext makes the current version the one sends use.
func (s *TemplatesService) PublishWithContext(ctx context.Context, idOrAlias string) (*ObjectRef, error) {
	if err := required("idOrAlias", idOrAlias); err != nil {
		return nil, err
	}
	return fetch[ObjectRef](ctx, s.client, call{method: http.MethodPost, path: templatePath(idOrAlias, "/publish")})
}

// Duplicate copies a template as a new draft and answers the copy's id.
func (s *TemplatesService) Duplicate(idOrAlias string) (*ObjectRef, error) {
	return s.DuplicateWithContext(context.Background(), idOrAlias)
}

// DuplicateWithContext copies a template as a new draft and answers the copy's id.
func (s *TemplatesService) DuplicateWithContext(ctx context.Context, idOrAlias string) (*ObjectRef, error) {
	if err := required("idOrAlias", idOrAlias); err != nil {
		return nil, err
	}
	return fetch[ObjectRef](ctx, s.client, call{method: http.MethodPost, path: templatePath(idOrAlias, "/duplicate")})
}

// Render renders the current version with variables (a preview; nothing is sent).
func (s *TemplatesService) Render(idOrAlias string, params *RenderTemplateRequest) (*RenderedTemplate, error) {
	return s.RenderWithContext(context.Background(), idOrAlias, params)
}

// RenderWithContext renders the current version with variables (a preview; nothing is sent).
func (s *TemplatesService) RenderWithContext(ctx context.Context, idOrAlias string, params *RenderTemplateRequest) (*RenderedTemplate, error) {
	if err := required("idOrAlias", idOrAlias); err != nil {
		return nil, err
	}
	if params == nil {
		params = &RenderTemplateRequest{}
	}
	return fetch[RenderedTemplate](ctx, s.client, call{method: http.MethodPost, path: templatePath(idOrAlias, "/render"), body: params})
}

// Validate checks a template source and answers its problems at their line and column.
func (s *TemplatesService) Validate(params *ValidateTemplateRequest) (*TemplateValidation, error) {
	return s.ValidateWithContext(context.Background(), params)
}

// ValidateWithContext checks a template source and answers its problems at their line and column.
func (s *TemplatesService) ValidateWithContext(ctx context.Context, params *ValidateTemplateRequest) (*TemplateValidation, error) {
	return fetch[TemplateValidation](ctx, s.client, call{method: http.MethodPost, path: "templates/validate", body: params})
}
