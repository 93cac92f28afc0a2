// The AI helpers (DESIGN §8, scope ai:use): whether a model is configured, subject-line scoring, which works
// offline, and drafting an email from a brief through the model the server is configured with. Nothing is ever sent.
package mailroom

import (
	"context"
	"net/http"
)

// AIStatus answers Status: whether a model is configured, so that drafts and subject suggestions can be asked for.
// Model is the configured model's name (empty without one); Message then says what to configure, in the words of
// the 503 that Write answers (empty when a model is configured).
type AIStatus struct {
	Object          string `json:"object"`
	ModelConfigured bool   `json:"model_configured"`
	Model           string `json:"model"`
	Message         string `json:"message"`
}

// SubjectRequest is a subject line to score; Html or Text, when given, count for the preview text.
type SubjectRequest struct {
	Subject string `json:"subject"`
	Html    string `json:"html,omitempty"`
	Text    string `json:"text,omitempty"`
}

// SubjectAnalysis answers Subject: a score from 0 to 100, the rules that cost points with their fixes, and better
// subjects from the model (empty without one; SuggestionsUnavailable says why).
type SubjectAnalysis struct {
	Score                  int                 `json:"score"`
	Findings               []SubjectFinding    `json:"findings"`
	Suggestions            []SubjectSuggestion `json:"suggestions"`
	SuggestionsUnavailable string              `json:"suggestions_unavailable,omitempty"`
	PromptVersion          string              `json:"prompt_version"`
}

// SubjectFinding is one rule a subject breaks. Severity is error, warning or info.
type SubjectFinding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Fix      string `json:"fix"`
}

// SubjectSuggestion is a subject proposed by the model, scored by the same rules.
type SubjectSuggestion struct {
	Subject  string           `json:"subject"`
	Score    int              `json:"score"`
	Findings []SubjectFinding `json:"findings"`
}

// WriteRequest asks for a draft. Format is "html" (default) or "mjml"; {{placeholders}} in Brief are kept in the
// draft; SaveAsTemplate saves it as a draft template.
type WriteRequest struct {
	Brief          string          `json:"brief"`
	Tone           string          `json:"tone,omitempty"`
	Audience       string          `json:"audience,omitempty"`
	Format         string          `json:"format,omitempty"`
	SaveAsTemplate *SaveAsTemplate `json:"save_as_template,omitempty"`
}

// SaveAsTemplate names the draft template a WriteRequest saves.
type SaveAsTemplate struct {
	Name  string `json:"name"`
	Alias string `json:"alias,omitempty"`
}

// EmailDraft is a checked draft: its Variables are the placeholders a send fills; TemplateId is set when saved.
type EmailDraft struct {
	Object        string   `json:"object"`
	Subject       string   `json:"subject"`
	Html          string   `json:"html"`
	Text          string   `json:"text"`
	Engine        string   `json:"engine"`
	Variables     []string `json:"variables"`
	TemplateId    string   `json:"template_id"`
	PromptVersion string   `json:"prompt_version"`
}

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
