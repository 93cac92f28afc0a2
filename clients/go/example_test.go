// Examples shown by go doc; compiled with the tests so the README's usage stays true to the API.
package mailroom_test

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/mailroom/mailroom-go"
)

func ExampleNewClient() {
	client := mailroom.NewClient(os.Getenv("MAILROOM_API_KEY"),
		mailroom.WithBaseURL("https://mail.example.com"),
		mailroom.WithRetries(3),
	)
	sent, err := client.Emails.SendWithOptions(context.Background(), &mailroom.SendEmailRequest{
		From:    "Acme <hello@example.com>",
		To:      []string{"reader@example.org"},
		Subject: "Your receipt",
		Html:    "<p>Thanks!</p>",
		Tags:    []mailroom.Tag{{Name: "kind", Value: "receipt"}},
	}, &mailroom.SendEmailOptions{IdempotencyKey: "order-1001/receipt"})

	var mrErr *mailroom.Error
	switch {
	case errors.As(err, &mrErr) && mrErr.Name == mailroom.NameRateLimitExceeded:
		log.Printf("rate limited; retry in %s", mrErr.RetryAfter)
	case err != nil:
		log.Print(err)
	default:
		log.Printf("sent %s", sent.Id)
	}
}

func ExampleWebhookVerifier_Verify() {
	verifier := mailroom.NewWebhookVerifier(os.Getenv("MAILROOM_WEBHOOK_SECRET"))
	verifier.Tolerance = 5 * time.Minute
	http.HandleFunc("/hooks/mailroom", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, "unreadable body", http.StatusBadRequest)
			return
		}
		event, err := verifier.Verify(r.Header, body)
		if err != nil {
			http.Error(w, "invalid signature", http.StatusBadRequest)
			return
		}
		var data mailroom.EmailEventData
		if err := event.DecodeData(&data); err == nil {
			log.Printf("%s for %s (delivery %s)", event.Type, data.EmailId, event.Id)
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

func ExampleOrganizationService_Update() {
	client := mailroom.NewClient(os.Getenv("MAILROOM_API_KEY"))
	// Set a field with Value, return it to its default with Null, leave it nil to keep it.
	org, err := client.Organization.Update(&mailroom.UpdateOrganizationRequest{
		DailyQuota: mailroom.Value(10000),
		Retention:  &mailroom.UpdateRetentionRequest{ContentDays: mailroom.Null[int]()},
	})
	if err != nil {
		log.Print(err)
		return
	}
	log.Printf("%d of %d messages sent today; content kept %g days", org.UsageToday, *org.DailyQuota, org.Retention.ContentDays)

	_, err = client.Emails.Send(&mailroom.SendEmailRequest{From: "hello@example.com", To: []string{"reader@example.org"}, Subject: "Hi", Text: "Hi"})
	var mrErr *mailroom.Error
	if errors.As(err, &mrErr) && mrErr.Name == mailroom.NameDailyQuotaExceeded {
		log.Printf("the day's quota is used up; it starts again in %s", mrErr.RetryAfter)
	}
}

func ExampleMembersService_Invite() {
	client := mailroom.NewClient(os.Getenv("MAILROOM_API_KEY"))
	invitation, err := client.Members.Invite(&mailroom.InviteMemberRequest{Email: "ada@example.com", Role: mailroom.RoleDeveloper})
	if err != nil {
		log.Print(err)
		return
	}
	// The one-time link is in this answer only: send it to Ada, who sets a password and joins.
	log.Printf("invite Ada with %s (valid until %s)", invitation.Url, invitation.ExpiresAt)

	// Later: what was done, newest first.
	events, err := client.AuditLog.List(&mailroom.ListAuditLogOptions{Action: "member.invited", Limit: 10})
	if err != nil {
		log.Print(err)
		return
	}
	for _, event := range events.Data {
		log.Printf("%s %s by %s %s", event.CreatedAt, event.Action, event.Actor.Type, event.Actor.Name)
	}
}

func ExampleSendingService_Health() {
	client := mailroom.NewClient(os.Getenv("MAILROOM_API_KEY"))
	overview, err := client.Sending.Health()
	if err != nil {
		log.Print(err)
		return
	}
	for _, domain := range overview.Domains {
		if domain.Health.Status != mailroom.HealthOk {
			// Past a pause threshold the domain is paused until a person resumes it (Sending.Resume).
			log.Printf("%s: %s (%s)", domain.Name, domain.Health.Status, domain.Health.Reason)
		}
	}

	// Who sends as the domain: each address that DMARC reports name, and whether it is one of Mailroom's.
	summary, err := client.Domains.DmarcSummary("example.com", &mailroom.DmarcSummaryOptions{Days: 7})
	if err != nil {
		log.Print(err)
		return
	}
	for _, source := range summary.Data {
		if !source.Own {
			log.Printf("%s sent %d messages as example.com, %.0f %% aligned", source.SourceIp, source.Messages, source.AlignedPassRate*100)
		}
	}
}

func ExampleIpPoolsService_List() {
	client := mailroom.NewClient(os.Getenv("MAILROOM_API_KEY"))
	// Direct delivery of example.com's mail leaves from the addresses of the configured pool "main".
	if _, err := client.Domains.Update("example.com", &mailroom.UpdateDomainRequest{IpPool: mailroom.Value("main")}); err != nil {
		log.Print(err)
		return
	}
	pools, err := client.IpPools.List()
	if err != nil {
		log.Print(err)
		return
	}
	for _, pool := range pools.Data {
		for _, ip := range pool.Addresses {
			if ip.DailyCap != nil { // warming up (WarmupDay is nil until the address first sends)
				log.Printf("%s %s: %d of %d to gmail today", pool.Name, ip.Address, ip.Today["gmail"], *ip.DailyCap)
			}
			for _, back := range ip.BackedOff {
				log.Printf("%s slowed to %d/min by %s until %s", ip.Address, back.MessagesPerMinute, back.Provider, back.Until)
			}
		}
	}
}
