// Live tests of broadcasts: a personalised draft to a segment, changed, duplicated, listed and sent, followed until
// each contact's message is sent (the smarthost took it) and found among its recipients; a scheduled broadcast
// cancelled back to draft; and what a sent broadcast refuses.
package mailroom

import (
	"strings"
	"testing"
	"time"
)

func TestLiveBroadcastToASegment(t *testing.T) {
	env := live(t)
	client := env.client()
	segment, err := client.Segments.Create(&CreateSegmentRequest{Name: unique("go-readers")})
	if err != nil {
		t.Fatalf("create segment: %v", err)
	}
	t.Cleanup(func() { _, _ = client.Segments.Remove(segment.Id) })
	ada, bob := recipient(), recipient()
	for _, contact := range []CreateContactRequest{{Email: ada, FirstName: "Ada"}, {Email: bob}} {
		contact.Segments = []SegmentRef{{Id: segment.Id}}
		made, err := client.Contacts.Create(&contact)
		if err != nil {
			t.Fatalf("create contact: %v", err)
		}
		t.Cleanup(func() { _, _ = client.Contacts.Remove(made.Id) })
	}

	created, err := client.Broadcasts.Create(&CreateBroadcastRequest{
		Name: unique("go-broadcast"), SegmentId: segment.Id, From: env.from, Subject: "Draft subject",
		Html: "<p>Hello {{{FIRST_NAME|there}}}</p>",
	})
	if err != nil || created.Id == "" {
		t.Fatalf("create: %+v (%v)", created, err)
	}
	draft, err := client.Broadcasts.Get(created.Id)
	if err != nil || draft.Object != "broadcast" || draft.Status != BroadcastDraft || draft.SegmentId != segment.Id {
		t.Fatalf("get the draft: %+v (%v)", draft, err)
	}
	if _, err := client.Broadcasts.Update(created.Id, &UpdateBroadcastRequest{Subject: "News for {{{FIRST_NAME|you}}}"}); err != nil {
		t.Fatalf("update: %v", err)
	}
	copied, err := client.Broadcasts.Duplicate(created.Id)
	if err != nil || copied.Id == "" || copied.Id == created.Id {
		t.Fatalf("duplicate: %+v (%v)", copied, err)
	}
	if removed, err := client.Broadcasts.Remove(copied.Id); err != nil || !removed.Deleted || removed.Object != "broadcast" {
		t.Fatalf("remove the copy: %+v (%v)", removed, err)
	}
	listed, err := client.Broadcasts.List(&ListOptions{Limit: 100})
	if err != nil || listed.Object != "list" || len(listed.Data) == 0 {
		t.Fatalf("list: %+v (%v)", listed, err)
	}

	if sent, err := client.Broadcasts.Send(created.Id, nil); err != nil || sent.Id != created.Id {
		t.Fatalf("send: %+v (%v)", sent, err)
	}
	var done *Broadcast
	eventually(t, 30*time.Second, "both messages are handed to the smarthost", func() (bool, error) {
		got, err := client.Broadcasts.Get(created.Id)
		done = got
		return err == nil && got.Status == BroadcastSent && got.Counts.ByStatus.Sent == 2, err
	})
	if done.Counts.Messages != 2 || done.SentAt == "" {
		t.Fatalf("counts: %+v", done)
	}
	sentTo, err := client.Broadcasts.Recipients(created.Id, &ListBroadcastRecipientsOptions{Type: "sent", Email: ada})
	if err != nil || len(sentTo.Data) != 1 || sentTo.Data[0].Email != ada || sentTo.Data[0].ContactId == "" {
		t.Fatalf("recipients: %+v (%v)", sentTo, err)
	}
	message, err := client.Emails.Get(sentTo.Data[0].Id)
	if err != nil || message.Subject != "News for Ada" || !strings.Contains(message.Html, "Hello Ada") {
		t.Fatalf("Ada's message: %+v (%v)", message, err)
	}
	if links, err := client.Broadcasts.ClickedLinks(created.Id, nil); err != nil || links.Object != "list" || len(links.Data) != 0 {
		t.Fatalf("clicked links: %+v (%v)", links, err)
	}
	_, err = client.Broadcasts.Remove(created.Id)
	apiError(t, err, NameConflict, 409)
	_, err = client.Broadcasts.Update(created.Id, &UpdateBroadcastRequest{Name: "too late"})
	apiError(t, err, NameConflict, 409)
}

func TestLiveBroadcastScheduledThenCancelled(t *testing.T) {
	env := live(t)
	client := env.client()
	segment, err := client.Segments.Create(&CreateSegmentRequest{Name: unique("go-later")})
	if err != nil {
		t.Fatalf("create segment: %v", err)
	}
	t.Cleanup(func() { _, _ = client.Segments.Remove(segment.Id) })
	created, err := client.Broadcasts.Create(&CreateBroadcastRequest{
		SegmentId: segment.Id, From: env.from, Subject: "Later", Text: "Later", Send: Bool(true), ScheduledAt: "in 2 hours",
	})
	if err != nil {
		t.Fatalf("create and schedule: %v", err)
	}
	queued, err := client.Broadcasts.Get(created.Id)
	if err != nil || queued.Status != BroadcastQueued || queued.ScheduledAt == "" {
		t.Fatalf("scheduled: %+v (%v)", queued, err)
	}
	if cancelled, err := client.Broadcasts.Cancel(created.Id); err != nil || cancelled.Id != created.Id {
		t.Fatalf("cancel: %+v (%v)", cancelled, err)
	}
	back, err := client.Broadcasts.Get(created.Id)
	if err != nil || back.Status != BroadcastDraft || back.ScheduledAt != "" {
		t.Fatalf("back to draft: %+v (%v)", back, err)
	}
	_, err = client.Broadcasts.Cancel(created.Id)
	apiError(t, err, NameConflict, 409)
	if removed, err := client.Broadcasts.Remove(created.Id); err != nil || !removed.Deleted {
		t.Fatalf("remove the draft: %+v (%v)", removed, err)
	}
	_, err = client.Broadcasts.Recipients("", &ListBroadcastRecipientsOptions{Type: "sent"})
	if err == nil {
		t.Fatal("an empty id is refused before any request")
	}
}
