// Package mailroom is the Go client of Mailroom's Resend-compatible HTTP API (/v1): emails, batch sends, domains,
// API keys, webhooks, suppressions, templates, received mail, the delivery queue, sending pauses, IP pools, the
// organisation's settings, its members, invitations and audit log, the AI helpers, contacts with their properties,
// segments (audiences), topics and imports, broadcasts, the request log, usage and email metrics, and inbound routes,
// plus a Standard Webhooks verifier.
//
// This file owns the Client: its configuration (options) and the services it exposes. How a request travels
// (timeouts, retries, idempotency keys, errors) lives in request.go.
package mailroom

import (
	"math/rand"
	"net/http"
	"strings"
	"sync"
	"time"
)

const (
	// Version of this library, sent in the User-Agent.
	Version = "0.1.0"
	// DefaultBaseURL is where `mailroom serve` listens out of the box.
	DefaultBaseURL = "http://127.0.0.1:3000"
	// DefaultTimeout bounds each attempt of a request.
	DefaultTimeout = 30 * time.Second

	userAgent = "mailroom-go/" + Version
)

// Client talks to one Mailroom server with one API key. It is safe for concurrent use.
type Client struct {
	Emails        *EmailsService
	Batch         *BatchService
	Domains       *DomainsService
	ApiKeys       *ApiKeysService
	Webhooks      *WebhooksService
	Suppressions  *SuppressionsService
	Templates     *TemplatesService
	Deliveries    *DeliveriesService
	Sending       *SendingService
	IpPools       *IpPoolsService
	Organization  *OrganizationService
	Organizations *OrganizationsService
	Members       *MembersService
	AuditLog      *AuditLogService
	AI            *AIService
	// Contacts, with Contacts.Segments, Contacts.Topics and Contacts.Imports.
	Contacts          *ContactsService
	ContactProperties *ContactPropertiesService
	Segments          *SegmentsService
	// Audiences is Segments on Resend's older /v1/audiences paths.
	Audiences *AudiencesService
	Topics    *TopicsService
	Logs      *LogsService
	Usage     *UsageService
	// Broadcasts sends one personalised message per contact of a segment.
	Broadcasts *BroadcastsService

	apiKey     string
	baseURL    string
	httpClient *http.Client
	timeout    time.Duration
	maxRetries int
	// The first retry waits about backoffBase; each further one twice as long, up to backoffMax.
	backoffBase time.Duration
	backoffMax  time.Duration

	jitterMu sync.Mutex
	jitter   *rand.Rand
}

// Option configures a Client in NewClient.
type Option func(*Client)

// WithBaseURL sets the server's address, e.g. "https://mail.example.com" (default http://127.0.0.1:3000). The
// client adds /v1/… itself; a trailing /v1, as Resend SDKs are configured, is accepted too.
func WithBaseURL(baseURL string) Option {
	return func(c *Client) { c.baseURL = baseURL }
}

// WithTimeout bounds each attempt of a request (default 30 s; 0 or less: no bound but the context's).
func WithTimeout(timeout time.Duration) Option {
	return func(c *Client) { c.timeout = timeout }
}

// WithRetries turns on retries (off by default): up to maxRetries more attempts after a 429 (waiting its
// Retry-After), a 5xx, a network failure or a timeout. Other 4xx answers are never retried, nor is a used-up daily
// quota (its Retry-After runs to 00:00 UTC). Sends and batches then always carry an Idempotency-Key (one is
// generated when none is given), so a retried send never sends twice.
func WithRetries(maxRetries int) Option {
	return func(c *Client) { c.maxRetries = maxRetries }
}

// WithRetryBackoff sets the exponential backoff between retries of 5xx answers and network failures: the first
// wait is about base, each next one twice as long, capped at maxWait; a random jitter spreads clients apart.
// Defaults: 500 ms and 10 s.
func WithRetryBackoff(base, maxWait time.Duration) Option {
	return func(c *Client) {
		c.backoffBase = base
		c.backoffMax = maxWait
	}
}

// WithHTTPClient replaces the http.Client used for every request (proxies, custom TLS, transports). Its own
// Timeout, if any, applies on top of WithTimeout.
func WithHTTPClient(httpClient *http.Client) Option {
	return func(c *Client) { c.httpClient = httpClient }
}

// NewClient returns a client for apiKey (mr_live_… or mr_test_…).
func NewClient(apiKey string, options ...Option) *Client {
	c := &Client{
		apiKey:      strings.TrimSpace(apiKey),
		baseURL:     DefaultBaseURL,
		httpClient:  &http.Client{},
		timeout:     DefaultTimeout,
		backoffBase: 500 * time.Millisecond,
		backoffMax:  10 * time.Second,
		jitter:      rand.New(rand.NewSource(time.Now().UnixNano())),
	}
	for _, option := range options {
		option(c)
	}
	if c.httpClient == nil {
		c.httpClient = &http.Client{}
	}
	if c.maxRetries < 0 {
		c.maxRetries = 0
	}
	c.baseURL = normalizeBaseURL(c.baseURL)

	c.Emails = &EmailsService{client: c, Receiving: &ReceivingService{client: c, Routes: &InboundRoutesService{client: c}}}
	c.Batch = &BatchService{client: c}
	c.Domains = &DomainsService{client: c}
	c.ApiKeys = &ApiKeysService{client: c}
	c.Webhooks = &WebhooksService{client: c}
	c.Suppressions = &SuppressionsService{client: c, Batch: &SuppressionsBatchService{client: c}}
	c.Templates = &TemplatesService{client: c}
	c.Deliveries = &DeliveriesService{client: c, Bulk: &DeliveriesBulkService{client: c}}
	c.Sending = &SendingService{client: c}
	c.IpPools = &IpPoolsService{client: c}
	c.Organization = &OrganizationService{client: c}
	c.Organizations = &OrganizationsService{client: c}
	c.Members = &MembersService{client: c}
	c.AuditLog = &AuditLogService{client: c}
	c.AI = &AIService{client: c}
	c.Contacts = &ContactsService{
		client:   c,
		Segments: &ContactSegmentsService{client: c},
		Topics:   &ContactTopicsService{client: c},
		Imports:  &ContactImportsService{client: c},
	}
	c.ContactProperties = &ContactPropertiesService{client: c}
	c.Segments = &SegmentsService{client: c, base: "segments"}
	c.Audiences = &AudiencesService{client: c, base: "audiences"}
	c.Topics = &TopicsService{client: c}
	c.Logs = &LogsService{client: c}
	c.Usage = &UsageService{client: c}
	c.Broadcasts = &BroadcastsService{client: c}
	return c
}

// normalizeBaseURL drops trailing slashes and a trailing /v1, so a URL written for a Resend SDK works unchanged.
func normalizeBaseURL(baseURL string) string {
	baseURL = strings.TrimRight(strings.TrimSpace(baseURL), "/")
	if baseURL == "" {
		return DefaultBaseURL
	}
	baseURL = strings.TrimSuffix(baseURL, "/v1")
	return strings.TrimRight(baseURL, "/")
}
