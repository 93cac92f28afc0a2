// Batch sending (POST /v1/emails/batch, up to 100 emails): strict (all or nothing) or permissive (the valid ones are
// sent and the others' errors answered by index).
package mailroom

import (
	"context"
	"fmt"
	"net/http"
)

// BatchValidationMode is the x-batch-validation header.
type BatchValidationMode string

const (
	// BatchValidationStrict sends nothing unless every email is valid (the server's default).
	BatchValidationStrict BatchValidationMode = "strict"
	// BatchValidationPermissive sends the valid emails and reports the others in BatchEmailResponse.Errors.
	BatchValidationPermissive BatchValidationMode = "permissive"
)

// BatchSendEmailOptions are the per-call options of a batch send.
type BatchSendEmailOptions struct {
	// IdempotencyKey makes a repeated batch answer the first result instead of sending again.
	IdempotencyKey  string
	BatchValidation BatchValidationMode
}

// BatchError is the problem of one email of a permissive batch; Index is its position in the request.
type BatchError = CreateBatchResponseError

// BatchEmailResponse answers a batch: the ids of the emails sent, in request order, and (permissive mode) the
// errors of those refused.
type BatchEmailResponse = CreateBatchResponse

// BatchService sends several emails in one request.
type BatchService struct {
	client *Client
}

// Send sends a batch in strict mode.
func (s *BatchService) Send(params []*SendEmailRequest) (*BatchEmailResponse, error) {
	return s.SendWithOptions(context.Background(), params, nil)
}

// SendWithContext sends a batch in strict mode.
func (s *BatchService) SendWithContext(ctx context.Context, params []*SendEmailRequest) (*BatchEmailResponse, error) {
	return s.SendWithOptions(ctx, params, nil)
}

// SendWithOptions sends a batch with an idempotency key and a validation mode.
func (s *BatchService) SendWithOptions(ctx context.Context, params []*SendEmailRequest, options *BatchSendEmailOptions) (*BatchEmailResponse, error) {
	header := http.Header{}
	if options != nil {
		switch options.BatchValidation {
		case "", BatchValidationStrict, BatchValidationPermissive:
		default:
			return nil, fmt.Errorf("mailroom: BatchValidation must be %q or %q", BatchValidationStrict, BatchValidationPermissive)
		}
		header.Set("Idempotency-Key", options.IdempotencyKey)
		header.Set("X-Batch-Validation", string(options.BatchValidation))
	}
	body := make([]interface{}, len(params))
	for i, email := range params {
		body[i] = bodyOf(email)
	}
	return fetch[BatchEmailResponse](ctx, s.client, call{method: http.MethodPost, path: "emails/batch", body: body, header: header, send: true})
}
