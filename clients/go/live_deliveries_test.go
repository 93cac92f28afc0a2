// Live tests of the delivery queue and of sending pauses: a message scheduled an hour ahead, its recipients listed,
// summarised, acted on one at a time and in bulk (with the refusals); and a paused sending domain holding a message
// until it is resumed, what a pause may name, and the scope both need.
package mailroom

import (
	"net/mail"
	"strings"
	"testing"
	"time"
)

func TestLiveDeliveriesQueue(t *testing.T) {
	env := live(t)
	client := env.client()
	// Scheduled an hour ahead: both recipients wait, queued and not yet attempted, for the whole test.
	first, second := recipient(), recipient()
	at := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	sent, err := client.Emails.Send(&SendEmailRequest{From: env.from, To: []string{first, second}, Subject: unique("Queued"), Html: "<p>In an hour.</p>", ScheduledAt: at.Format(time.RFC3339)})
	if err != nil {
		t.Fatalf("scheduled send: %v", err)
	}

	listed, err := client.Deliveries.List(&ListDeliveriesOptions{EmailId: sent.Id, Limit: 10})
	if err != nil || listed.Object != "list" || len(listed.Data) != 2 {
		t.Fatalf("list by email id: %+v (%v)", listed, err)
	}
	recipients := map[string]bool{}
	for _, delivery := range listed.Data {
		if delivery.Object != "delivery" || delivery.Id == "" || delivery.EmailId != sent.Id || delivery.Status != DeliveryStatusQueued || delivery.Attempts != 0 || delivery.CreatedAt == "" {
			t.Fatalf("a waiting recipient: %+v", delivery)
		}
		recipients[delivery.Recipient] = true
	}
	if !recipients[first] || !recipients[second] {
		t.Fatalf("the list names both recipients: %+v", listed.Data)
	}
	queued, err := client.Deliveries.List(&ListDeliveriesOptions{EmailId: sent.Id, Status: DeliveryStatusQueued})
	if err != nil || len(queued.Data) != 2 {
		t.Fatalf("list by email id and status: %+v (%v)", queued, err)
	}

	summary, err := client.Deliveries.Summary()
	if err != nil || summary.Object != "queue_summary" || summary.ByStatus.Queued < 2 || summary.OldestWaitingAt == "" || len(summary.ByDomain) == 0 {
		t.Fatalf("summary: %+v (%v)", summary, err)
	}

	one, other := listed.Data[0], listed.Data[1]
	// Only a deferred delivery can be retried, only a held one released.
	_, err = client.Deliveries.Retry(one.Id)
	apiError(t, err, NameConflict, 409)
	_, err = client.Deliveries.Release(one.Id)
	apiError(t, err, NameConflict, 409)
	_, err = client.Deliveries.Retry("00000000-0000-4000-8000-000000000000")
	apiError(t, err, NameNotFound, 404)

	canceled, err := client.Deliveries.Cancel(one.Id)
	if err != nil || canceled.Id != one.Id || canceled.Status != "canceled" || canceled.Recipient != one.Recipient {
		t.Fatalf("cancel one: %+v (%v)", canceled, err)
	}
	_, err = client.Deliveries.Cancel(one.Id)
	apiError(t, err, NameConflict, 409)

	bulk, err := client.Deliveries.Bulk.Cancel(&BulkDeliveriesRequest{EmailId: sent.Id})
	if err != nil || bulk.Object != "bulk" || bulk.Matched != 1 || bulk.Changed != 1 {
		t.Fatalf("bulk cancel of the email's other recipient (%s): %+v (%v)", other.Id, bulk, err)
	}
	left, err := client.Deliveries.List(&ListDeliveriesOptions{EmailId: sent.Id})
	if err != nil || len(left.Data) != 0 {
		t.Fatalf("nothing of the email waits any more: %+v (%v)", left, err)
	}
	email, err := client.Emails.Get(sent.Id)
	if err != nil || len(email.Recipients) != 2 || email.Recipients[0].Status != "canceled" || email.Recipients[1].Status != "canceled" {
		t.Fatalf("the look-up record shows both recipients canceled: %+v (%v)", email, err)
	}

	// A bulk action needs a filter; nil is sent as {} and refused the same way.
	_, err = client.Deliveries.Bulk.Release(&BulkDeliveriesRequest{})
	if refused := apiError(t, err, NameValidationError, 400); !IsValidationError(err) || refused.Message == "" {
		t.Fatalf("an empty filter: %+v", refused)
	}
	_, err = client.Deliveries.Bulk.Retry(nil)
	apiError(t, err, NameValidationError, 400)

	_, err = NewClient(env.sendingKey, WithBaseURL(env.baseURL)).Deliveries.List(nil)
	apiError(t, err, NameInsufficientScope, 403)
	_, err = NewClient(env.sendingKey, WithBaseURL(env.baseURL)).Deliveries.Bulk.Cancel(&BulkDeliveriesRequest{EmailId: sent.Id})
	apiError(t, err, NameInsufficientScope, 403)
}

func TestLiveSendingPauseHoldsAndResumeReleases(t *testing.T) {
	env := live(t)
	client := env.client()
	from, err := mail.ParseAddress(env.from)
	if err != nil {
		t.Fatalf("MAILROOM_FROM %q: %v", env.from, err)
	}
	domain := from.Address[strings.LastIndex(from.Address, "@")+1:]
	// Other suites (and this one's other tests) send from the same domain and may pause it too: this test ends its
	// own pause whatever happens, tolerates what others' pauses hold and release, and looks only at its domain's.
	reason := unique("go pause")
	state, err := client.Sending.Pause(&PauseSendingRequest{Scope: PauseScopeDomain, Name: domain, Reason: reason})
	if err != nil {
		t.Fatalf("pause %s: %v", domain, err)
	}
	paused := true
	defer func() {
		if paused {
			_, _ = client.Sending.Resume(&ResumeSendingRequest{Scope: PauseScopeDomain, Name: domain})
		}
	}()
	if state.Object != "sending" || domainPause(state.Pauses, domain) == nil {
		t.Fatalf("the pause answers the state with it: %+v", state)
	}

	state, err = client.Sending.Get()
	if err != nil || state.Object != "sending" {
		t.Fatalf("get: %+v (%v)", state, err)
	}
	pause := domainPause(state.Pauses, domain)
	if pause == nil || pause.PausedAt == "" || pause.PausedBy == "" {
		t.Fatalf("the pause of %s is listed: %+v", domain, state.Pauses)
	}
	// Pausing what is paused keeps the first pause: another suite's, if it paused the domain first.
	if pause.Reason != reason {
		t.Logf("%s was paused first by another suite (reason %q)", domain, pause.Reason)
	}

	to := recipient()
	sent, err := client.Emails.Send(&SendEmailRequest{From: env.from, To: []string{to}, Subject: unique("Held"), Html: "<p>Held until resumed.</p>"})
	if err != nil {
		t.Fatalf("send while paused: %v", err)
	}
	var held *Delivery
	eventually(t, 5*time.Second, "the recipient is held", func() (bool, error) {
		listed, err := client.Deliveries.List(&ListDeliveriesOptions{EmailId: sent.Id, Status: DeliveryStatusHeld})
		if err != nil || len(listed.Data) == 0 {
			return false, err
		}
		held = &listed.Data[0]
		return true, nil
	})
	if held.Recipient != to || held.Status != DeliveryStatusHeld || held.Attempts != 0 || !strings.Contains(held.LastResponse, "paused") {
		t.Fatalf("a held recipient, never attempted: %+v", held)
	}

	resumed, err := client.Sending.Resume(&ResumeSendingRequest{Scope: PauseScopeDomain, Name: domain})
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	paused = false
	// Released counts every held recipient the resume let go, others' included.
	if resumed.Object != "sending" || resumed.Released < 1 || domainPause(resumed.Pauses, domain) != nil {
		t.Fatalf("resume releases the held recipient and leaves no pause of %s: %+v", domain, resumed)
	}
	_, err = client.Sending.Resume(&ResumeSendingRequest{Scope: PauseScopeDomain, Name: domain})
	apiError(t, err, NameNotFound, 404)
	eventually(t, 15*time.Second, "the released email is sent", func() (bool, error) {
		email, err := client.Emails.Get(sent.Id)
		if err != nil {
			return false, err
		}
		return email.Status == "sent" || email.Status == "delivered", nil
	})

	_, err = client.Sending.Pause(&PauseSendingRequest{Scope: PauseScopeProvider, Name: unique("no-such-provider")})
	if refused := apiError(t, err, NameValidationError, 400); len(refused.Details) == 0 || refused.Details[0].Path != "name" {
		t.Fatalf("an unknown provider is named in details: %+v", refused.Details)
	}
	_, err = client.Sending.Pause(&PauseSendingRequest{Scope: PauseScopeDomain, Name: unique("go") + ".example.net"})
	apiError(t, err, NameNotFound, 404)
	_, err = client.Sending.Pause(&PauseSendingRequest{Scope: PauseScopeOrganization, Name: domain})
	apiError(t, err, NameValidationError, 400)

	sending := NewClient(env.sendingKey, WithBaseURL(env.baseURL))
	_, err = sending.Sending.Get()
	apiError(t, err, NameInsufficientScope, 403)
	_, err = sending.Sending.Pause(&PauseSendingRequest{Scope: PauseScopeDomain, Name: domain})
	apiError(t, err, NameInsufficientScope, 403)
}

// domainPause finds the pause of one sending domain among the pauses, or nil.
func domainPause(pauses []SendingPause, domain string) *SendingPause {
	for i := range pauses {
		if pauses[i].Scope == PauseScopeDomain && pauses[i].Name == domain {
			return &pauses[i]
		}
	}
	return nil
}
