// Contact properties (docs/contacts.md, Resend's contactProperties): the custom fields contacts may carry, each with
// a type (string, number or boolean) and a fallback value used where a contact has none.
package mailroom

import (
	"context"
	"net/http"
)

type (
	// CreateContactPropertyRequest is a new property: Key (letters, digits and underscores), Type and
	// FallbackValue.
	CreateContactPropertyRequest = CreateContactPropertyOptions
	// UpdateContactPropertyRequest changes a property's FallbackValue (Value(…) sets it, Null[any]() clears it);
	// its key and type cannot change.
	UpdateContactPropertyRequest = UpdateContactPropertyOptions
)

// Property types (ContactProperty.Type).
const (
	ContactPropertyString  = "string"
	ContactPropertyNumber  = "number"
	ContactPropertyBoolean = "boolean"
)

// ContactPropertiesService manages contact properties (scopes contacts:read and contacts:write).
type ContactPropertiesService struct {
	client *Client
}

func contactPropertyPath(propertyId string) string {
	return "contact-properties/" + escape(propertyId)
}

// Create creates a contact property.
func (s *ContactPropertiesService) Create(params *CreateContactPropertyRequest) (*ContactProperty, error) {
	return s.CreateWithContext(context.Background(), params)
}

// CreateWithContext creates a contact property.
func (s *ContactPropertiesService) CreateWithContext(ctx context.Context, params *CreateContactPropertyRequest) (*ContactProperty, error) {
	return fetch[ContactProperty](ctx, s.client, call{method: http.MethodPost, path: "contact-properties", body: params})
}

// Get gets a contact property.
func (s *ContactPropertiesService) Get(propertyId string) (*ContactProperty, error) {
	return s.GetWithContext(context.Background(), propertyId)
}

// GetWithContext gets a contact property.
func (s *ContactPropertiesService) GetWithContext(ctx context.Context, propertyId string) (*ContactProperty, error) {
	if err := required("propertyId", propertyId); err != nil {
		return nil, err
	}
	return fetch[ContactProperty](ctx, s.client, call{method: http.MethodGet, path: contactPropertyPath(propertyId)})
}

// List lists contact properties, newest first (options may be nil).
func (s *ContactPropertiesService) List(options *ListOptions) (*List[ContactProperty], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists contact properties, newest first (options may be nil).
func (s *ContactPropertiesService) ListWithContext(ctx context.Context, options *ListOptions) (*List[ContactProperty], error) {
	return fetch[List[ContactProperty]](ctx, s.client, call{method: http.MethodGet, path: "contact-properties", query: options.values()})
}

// Update changes a property's fallback value and answers the property.
func (s *ContactPropertiesService) Update(propertyId string, params *UpdateContactPropertyRequest) (*ContactProperty, error) {
	return s.UpdateWithContext(context.Background(), propertyId, params)
}

// UpdateWithContext changes a property's fallback value and answers the property.
func (s *ContactPropertiesService) UpdateWithContext(ctx context.Context, propertyId string, params *UpdateContactPropertyRequest) (*ContactProperty, error) {
	if err := required("propertyId", propertyId); err != nil {
		return nil, err
	}
	if params == nil {
		params = &UpdateContactPropertyRequest{}
	}
	return fetch[ContactProperty](ctx, s.client, call{method: http.MethodPatch, path: contactPropertyPath(propertyId), body: params})
}

// Remove deletes a contact property.
func (s *ContactPropertiesService) Remove(propertyId string) (*DeletedObject, error) {
	return s.RemoveWithContext(context.Background(), propertyId)
}

// RemoveWithContext deletes a contact property.
func (s *ContactPropertiesService) RemoveWithContext(ctx context.Context, propertyId string) (*DeletedObject, error) {
	if err := required("propertyId", propertyId); err != nil {
		return nil, err
	}
	return fetch[DeletedObject](ctx, s.client, call{method: http.MethodDelete, path: contactPropertyPath(propertyId)})
}
