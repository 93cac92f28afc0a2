// The AI helpers (docs/templates-and-ai.md#ai-writer-and-subject-scoring, scope ai:use): whether a model is configured, subject-line scoring, which works
// offline, and drafting an email from a brief through the model the server is configured with. Nothing is ever sent.
package mailroom

import (
	"context"
	"net/http"
)

// The AI helpers' shapes are the document's (generated.go), under the names this client has always used.
type (
	// AIStatus answers Status: whether a model is configured, so that drafts and subject suggestions can be asked
	// for. Model is the configured model's name (empty without one); Message then says what to configure, in the
	// words of the 503 that Write answers (empty when a model is configured).
	AIStatus = AiStatus
	// SubjectRequest is a subject line to score; Html or Text, when given, count for the preview text.
	SubjectRequest = SubjectOptions
	// SubjectAnalysis answers Subject: a score from 0 to 100, the rules that cost points with their fixes, and
	// better subjects from the model (empty without one; SuggestionsUnavailable says why).
	SubjectAnalysis = SubjectResponse
	// SubjectSuggestion is a subject proposed by the model, scored by the same rules.
	SubjectSuggestion = SubjectScore
	// WriteRequest asks for a draft. Format is "html" (default) or "mjml"; {{placeholders}} in Brief are kept in the
	// draft; SaveAsTemplate saves it as a draft template.
	WriteRequest = WriteOptions
	// SaveAsTemplate names the draft template a WriteRequest saves.
	SaveAsTemplate = WriteOptionsSaveAsTemplate
	// EmailDraft is a checked draft: its Variables are the placeholders a send fills; TemplateId is set when saved.
	EmailDraft = WriteResponse
)

// AIService says whether a model is configured, scores subjects and drafts emails.
type AIService struct {
	client *Client
}

// Status says whether a model is configured (its name), else what to configure: ask before submitting a brief.
func (s *AIService) Status() (*AIStatus, error) {
	return s.StatusWithContext(context.Background())
}

// StatusWithContext says whether a model is configured (its name), else what to configure: ask before submitting a
// brief.
func (s *AIService) StatusWithContext(ctx context.Context) (*AIStatus, error) {
	return fetch[AIStatus](ctx, s.client, call{method: http.MethodGet, path: "ai"})
}

// Subject scores a subject line.
func (s *AIService) Subject(params *SubjectRequest) (*SubjectAnalysis, error) {
	return s.SubjectWithContext(context.Background(), params)
}

// SubjectWithContext scores a subject line.
func (s *AIService) SubjectWithContext(ctx context.Context, params *SubjectRequest) (*SubjectAnalysis, error) {
	return fetch[SubjectAnalysis](ctx, s.client, call{method: http.MethodPost, path: "ai/subject", body: params})
}

// Write drafts an email from a brief; without a configured model the server answers 503 service_unavailable.
func (s *AIService) Write(params *WriteRequest) (*EmailDraft, error) {
	return s.WriteWithContext(context.Background(), params)
}

// WriteWithContext drafts an email from a brief; without a configured model the server answers 503
// service_unavailable.
func (s *AIService) WriteWithContext(ctx context.Context, params *WriteRequest) (*EmailDraft, error) {
	return fetch[EmailDraft](ctx, s.client, call{method: http.MethodPost, path: "ai/write", body: params})
}
