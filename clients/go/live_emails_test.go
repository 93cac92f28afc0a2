// Live tests of email: a send with attachments and tags followed to the smarthost and read back (look-up,
// attachments, raw message, the list filtered by recipient and tag), batches strict and permissive, the idempotency
// key, a scheduled send rescheduled and cancelled, and the message received before the suites start, read through
// the receiving API.
package mailroom

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestLiveSendWithAttachmentsAndTagsIsSent(t *testing.T) {
	env := live(t)
	client := env.client()
	to := recipient()
	subject := unique("Receipt")
	sent, err := client.Emails.Send(&SendEmailRequest{
		From:        env.from,
		To:          []string{to},
		Subject:     subject,
		Html:        "<p>Thanks for your order.</p>",
		Tags:        []Tag{{Name: "kind", Value: "receipt"}, {Name: "order", Value: "A-1001"}},
		Attachments: []*Attachment{{Filename: "receipt.txt", Content: []byte("Thanks!"), ContentType: "text/plain"}},
	})
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	if sent.Id == "" {
		t.Fatal("a send answers the email's id")
	}

	var email *Email
	eventually(t, 15*time.Second, "the email reaches the smarthost (status sent)", func() (bool, error) {
		email, err = client.Emails.Get(sent.Id)
		if err != nil {
			return false, err
		}
		if email.Status == "bounced" || email.Status == "failed" {
			t.Fatalf("the email %s: %+v", email.Status, email.Recipients)
		}
		return email.Status == "sent" || email.Status == "delivered", nil
	})
	if email.Subject != subject || len(email.To) != 1 || email.To[0] != to || len(email.Tags) != 2 || len(email.Events) == 0 {
		t.Fatalf("look-up record %+v", email)
	}
	if len(email.Recipients) != 1 || email.Recipients[0].Attempts < 1 {
		t.Fatalf("recipients %+v", email.Recipients)
	}
	if email.ContentRemovedAt != "" {
		t.Fatalf("retention removed the content of a message sent just now, at %s", email.ContentRemovedAt)
	}

	attachments, err := client.Emails.ListAttachments(sent.Id, nil)
	if err != nil || len(attachments.Data) != 1 || attachments.Data[0].Filename != "receipt.txt" || attachments.Data[0].DownloadUrl == "" {
		t.Fatalf("attachments %+v (%v)", attachments, err)
	}
	attachment, err := client.Emails.GetAttachment(sent.Id, attachments.Data[0].Id)
	if err != nil || attachment.Filename != "receipt.txt" {
		t.Fatalf("attachment %+v (%v)", attachment, err)
	}
	raw, err := client.Emails.Raw(sent.Id)
	if err != nil || !strings.Contains(string(raw), subject) {
		t.Fatalf("raw message (%v): %.200s", err, raw)
	}

	listed, err := client.Emails.List(&ListEmailsOptions{To: to, Tag: "kind:receipt", Limit: 10})
	if err != nil || listed.Object != "list" || len(listed.Data) != 1 || listed.Data[0].Id != sent.Id {
		t.Fatalf("list filtered by to and tag: %+v (%v)", listed, err)
	}
}

func TestLiveBatchStrictAndPermissive(t *testing.T) {
	env := live(t)
	client := env.client()
	valid := func() *SendEmailRequest {
		return &SendEmailRequest{From: env.from, To: []string{recipient()}, Subject: "Batch", Html: "<p>One of several.</p>"}
	}
	invalid := &SendEmailRequest{From: env.from, Subject: "No recipient", Html: "<p>Missing to.</p>"}

	strict, err := client.Batch.Send([]*SendEmailRequest{valid(), valid()})
	if err != nil || len(strict.Data) != 2 || strict.Data[0].Id == "" || len(strict.Errors) != 0 {
		t.Fatalf("strict batch: %+v (%v)", strict, err)
	}

	_, err = client.Batch.SendWithOptions(context.Background(), []*SendEmailRequest{valid(), invalid}, &BatchSendEmailOptions{BatchValidation: BatchValidationStrict})
	refused := apiError(t, err, NameValidationError, 400)
	if len(refused.Details) == 0 || !strings.HasPrefix(refused.Details[0].Path, "1") {
		t.Fatalf("a strict batch names the invalid item: %+v", refused.Details)
	}

	permissive, err := client.Batch.SendWithOptions(context.Background(), []*SendEmailRequest{valid(), invalid}, &BatchSendEmailOptions{BatchValidation: BatchValidationPermissive})
	if err != nil {
		t.Fatalf("permissive batch: %v", err)
	}
	if len(permissive.Data) != 1 || permissive.Data[0].Id == "" || len(permissive.Errors) != 1 || permissive.Errors[0].Index != 1 || permissive.Errors[0].Message == "" {
		t.Fatalf("permissive batch: %+v", permissive)
	}
}

func TestLiveIdempotencyKey(t *testing.T) {
	env := live(t)
	client := env.client()
	key := unique("order")
	email := &SendEmailRequest{From: env.from, To: []string{recipient()}, Subject: "Once", Html: "<p>Sent once.</p>"}
	options := &SendEmailOptions{IdempotencyKey: key}
	first, err := client.Emails.SendWithOptions(context.Background(), email, options)
	if err != nil {
		t.Fatalf("first send: %v", err)
	}
	second, err := client.Emails.SendWithOptions(context.Background(), email, options)
	if err != nil {
		t.Fatalf("repeated send: %v", err)
	}
	if first.Id != second.Id {
		t.Fatalf("the same key answered two ids: %s and %s", first.Id, second.Id)
	}
	other := *email
	other.Subject = "Something else"
	_, err = client.Emails.SendWithOptions(context.Background(), &other, options)
	apiError(t, err, NameInvalidIdempotentRequest, 409)

	// With retries on, the client's own key makes the send safe to repeat; it still sends exactly one email.
	retried, err := env.client(WithRetries(2)).Emails.Send(&SendEmailRequest{From: env.from, To: []string{recipient()}, Subject: "Retried", Html: "<p>Safe.</p>"})
	if err != nil || retried.Id == "" {
		t.Fatalf("send with retries on: %+v (%v)", retried, err)
	}
}

func TestLiveRescheduleAndCancel(t *testing.T) {
	env := live(t)
	client := env.client()
	at := time.Now().Add(24 * time.Hour).UTC().Truncate(time.Second)
	sent, err := client.Emails.Send(&SendEmailRequest{From: env.from, To: []string{recipient()}, Subject: "Later", Html: "<p>Tomorrow.</p>", ScheduledAt: at.Format(time.RFC3339)})
	if err != nil {
		t.Fatalf("scheduled send: %v", err)
	}
	email, err := client.Emails.Get(sent.Id)
	if err != nil || email.Status != "scheduled" {
		t.Fatalf("scheduled email %+v (%v)", email, err)
	}

	later := at.Add(24 * time.Hour)
	updated, err := client.Emails.Update(&UpdateEmailRequest{Id: sent.Id, ScheduledAt: later.Format(time.RFC3339)})
	if err != nil || updated.Id != sent.Id {
		t.Fatalf("reschedule: %+v (%v)", updated, err)
	}
	email, err = client.Emails.Get(sent.Id)
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if scheduled, err := time.Parse(time.RFC3339, email.ScheduledAt); err != nil || !scheduled.Equal(later) {
		t.Fatalf("scheduled_at %q, want %s", email.ScheduledAt, later)
	}

	canceled, err := client.Emails.Cancel(sent.Id)
	if err != nil || canceled.Id != sent.Id {
		t.Fatalf("cancel: %+v (%v)", canceled, err)
	}
	email, err = client.Emails.Get(sent.Id)
	if err != nil || email.Status != "canceled" {
		t.Fatalf("canceled email %+v (%v)", email, err)
	}
}

func TestLiveReceiving(t *testing.T) {
	env := live(t)
	if env.inboundSubject == "" {
		t.Skip("MAILROOM_INBOUND_SUBJECT is not set")
	}
	client := env.client()
	var match *ReceivedEmail
	options := &ListOptions{Limit: 100}
	for match == nil {
		page, err := client.Emails.Receiving.List(options)
		if err != nil {
			t.Fatalf("list received: %v", err)
		}
		for i := range page.Data {
			if page.Data[i].Subject == env.inboundSubject {
				match = &page.Data[i]
			}
		}
		if match != nil || !page.HasMore || len(page.Data) == 0 {
			break
		}
		options.After = page.Data[len(page.Data)-1].Id
	}
	if match == nil {
		t.Fatalf("no received email has the subject %q", env.inboundSubject)
	}
	received, err := client.Emails.Receiving.Get(match.Id)
	if err != nil || received.Subject != env.inboundSubject || received.Text == "" || received.Raw.DownloadUrl == "" || received.Authentication.Header == "" {
		t.Fatalf("get received: %+v (%v)", received, err)
	}
	attachments, err := client.Emails.Receiving.ListAttachments(match.Id, nil)
	if err != nil || attachments.Object != "list" {
		t.Fatalf("received attachments: %+v (%v)", attachments, err)
	}
	raw, err := client.Emails.Receiving.Raw(match.Id)
	if err != nil || !strings.Contains(string(raw), env.inboundSubject) {
		t.Fatalf("raw received (%v): %.200s", err, raw)
	}
}
