// CSV imports of contacts (docs/contacts.md#imports, Resend's contacts.imports): the upload, sent as
// multipart/form-data as Resend's API takes it, then the import's status and live counts, and the list of imports.
package mailroom

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
)

// Import statuses (ContactImport.Status).
const (
	ContactImportQueued     = "queued"
	ContactImportInProgress = "in_progress"
	ContactImportCompleted  = "completed"
	ContactImportFailed     = "failed"
)

// CreateContactImportRequest is a CSV file of contacts and what to do with them. File is required; the rest is
// optional.
type CreateContactImportRequest struct {
	// File is the CSV, its first line the column names.
	File []byte
	// Filename names the upload (default "contacts.csv").
	Filename string
	// ColumnMap says which column holds each field when the names differ from email, first_name, last_name and
	// unsubscribed, e.g. {"email": "E-mail", "properties": {"plan": {"column": "Plan", "type": "string"}}}.
	ColumnMap map[string]any
	// OnConflict is "upsert" (default: an existing contact is updated) or "skip".
	OnConflict string
	// Segments each imported contact joins.
	Segments []SegmentRef
	// Topics each imported contact's choices are set to.
	Topics []TopicSubscription
}

// ListContactImportsOptions pages through imports, newest first; Status keeps those in one status.
type ListContactImportsOptions struct {
	Limit  int
	After  string
	Before string
	Status string
}

func (o *ListContactImportsOptions) values() url.Values {
	query := url.Values{}
	if o != nil {
		setPage(query, o.Limit, o.After, o.Before)
		setIf(query, "status", o.Status)
	}
	return query
}

// ContactImportsService imports contacts from CSV files (scope contacts:write; reading, contacts:read).
type ContactImportsService struct {
	client *Client
}

// Create uploads a CSV and queues its import; it answers the import's id. The server reads the file in the
// background: Get shows its progress.
func (s *ContactImportsService) Create(params *CreateContactImportRequest) (*ObjectRef, error) {
	return s.CreateWithContext(context.Background(), params)
}

// CreateWithContext uploads a CSV and queues its import; it answers the import's id. The server reads the file in
// the background: Get shows its progress.
func (s *ContactImportsService) CreateWithContext(ctx context.Context, params *CreateContactImportRequest) (*ObjectRef, error) {
	if params == nil || len(params.File) == 0 {
		return nil, fmt.Errorf("mailroom: File is required")
	}
	body, contentType, err := importForm(params)
	if err != nil {
		return nil, err
	}
	return fetch[ObjectRef](ctx, s.client, call{method: http.MethodPost, path: "contacts/imports", raw: body, contentType: contentType})
}

// importForm writes the multipart body: the options as JSON fields first, then the file.
func importForm(params *CreateContactImportRequest) ([]byte, string, error) {
	var buf bytes.Buffer
	form := multipart.NewWriter(&buf)
	fields := []struct {
		name  string
		value interface{}
		set   bool
	}{
		{"column_map", params.ColumnMap, len(params.ColumnMap) > 0},
		{"segments", params.Segments, len(params.Segments) > 0},
		{"topics", params.Topics, len(params.Topics) > 0},
	}
	for _, field := range fields {
		if !field.set {
			continue
		}
		encoded, err := json.Marshal(field.value)
		if err != nil {
			return nil, "", fmt.Errorf("mailroom: encoding %s: %w", field.name, err)
		}
		if err := form.WriteField(field.name, string(encoded)); err != nil {
			return nil, "", err
		}
	}
	if params.OnConflict != "" {
		if err := form.WriteField("on_conflict", params.OnConflict); err != nil {
			return nil, "", err
		}
	}
	filename := params.Filename
	if filename == "" {
		filename = "contacts.csv"
	}
	file, err := form.CreateFormFile("file", filename)
	if err != nil {
		return nil, "", err
	}
	if _, err := file.Write(params.File); err != nil {
		return nil, "", err
	}
	if err := form.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), form.FormDataContentType(), nil
}

// Get gets an import's status, counts and first failed lines.
func (s *ContactImportsService) Get(importId string) (*ContactImport, error) {
	return s.GetWithContext(context.Background(), importId)
}

// GetWithContext gets an import's status, counts and first failed lines.
func (s *ContactImportsService) GetWithContext(ctx context.Context, importId string) (*ContactImport, error) {
	if err := required("importId", importId); err != nil {
		return nil, err
	}
	return fetch[ContactImport](ctx, s.client, call{method: http.MethodGet, path: "contacts/imports/" + escape(importId)})
}

// List lists imports, newest first (options may be nil).
func (s *ContactImportsService) List(options *ListContactImportsOptions) (*List[ContactImport], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists imports, newest first (options may be nil).
func (s *ContactImportsService) ListWithContext(ctx context.Context, options *ListContactImportsOptions) (*List[ContactImport], error) {
	return fetch[List[ContactImport]](ctx, s.client, call{method: http.MethodGet, path: "contacts/imports", query: options.values()})
}
