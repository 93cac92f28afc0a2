// Live tests of contacts: made, found by id and by address, listed (and by segment), updated with a property,
// removed; segments and audiences with their members; topics and a contact's choices, and a send with a topic that
// skips whoever left it; contact properties; and a CSV import followed to its counts.
package mailroom

import (
	"fmt"
	"testing"
	"time"
)

func TestLiveContactsRoundTrip(t *testing.T) {
	env := live(t)
	client := env.client()
	plan, err := client.ContactProperties.Create(&CreateContactPropertyRequest{Key: "plan_" + unique("p")[2:], Type: ContactPropertyString, FallbackValue: "free"})
	if err != nil || plan.Object != "contact_property" || plan.FallbackValue != "free" {
		t.Fatalf("create property: %+v (%v)", plan, err)
	}
	t.Cleanup(func() { _, _ = client.ContactProperties.Remove(plan.Id) })
	segment, err := client.Segments.Create(&CreateSegmentRequest{Name: unique("go-segment")})
	if err != nil || segment.Object != "segment" {
		t.Fatalf("create segment: %+v (%v)", segment, err)
	}
	t.Cleanup(func() { _, _ = client.Segments.Remove(segment.Id) })

	address := recipient()
	created, err := client.Contacts.Create(&CreateContactRequest{Email: address, FirstName: "Ada", Segments: []SegmentRef{{Id: segment.Id}}})
	if err != nil || created.Object != "contact" || created.Email != address || created.FirstName != "Ada" {
		t.Fatalf("create: %+v (%v)", created, err)
	}
	t.Cleanup(func() { _, _ = client.Contacts.Remove(created.Id) })
	_, err = client.Contacts.Create(&CreateContactRequest{Email: address})
	apiError(t, err, NameConflict, 409)

	byEmail, err := client.Contacts.Get(address)
	if err != nil || byEmail.Id != created.Id || byEmail.Properties[plan.Key].Value != "free" {
		t.Fatalf("get by address (the property's fallback): %+v (%v)", byEmail, err)
	}
	updated, err := client.Contacts.Update(address, &UpdateContactRequest{FirstName: Null[string](), LastName: Value("Lovelace"), Properties: map[string]any{plan.Key: "pro"}})
	if err != nil || updated.FirstName != "" || updated.LastName != "Lovelace" {
		t.Fatalf("update: %+v (%v)", updated, err)
	}
	if got, err := client.Contacts.Get(created.Id); err != nil || got.Properties[plan.Key].Value != "pro" {
		t.Fatalf("get by id after the update: %+v (%v)", got, err)
	}

	inSegment, err := client.Contacts.List(&ListContactsOptions{SegmentId: segment.Id})
	if err != nil || inSegment.Object != "list" || len(inSegment.Data) != 1 || inSegment.Data[0].Id != created.Id {
		t.Fatalf("list the segment's contacts: %+v (%v)", inSegment, err)
	}
	page, err := client.Contacts.List(&ListContactsOptions{Limit: 1})
	if err != nil || len(page.Data) != 1 {
		t.Fatalf("list one: %+v (%v)", page, err)
	}

	removed, err := client.Contacts.Remove(address)
	if err != nil || !removed.Deleted || removed.Id != created.Id || removed.Contact != created.Id {
		t.Fatalf("remove by address: %+v (%v)", removed, err)
	}
	_, err = client.Contacts.Get(created.Id)
	apiError(t, err, NameNotFound, 404)
	_, err = client.Contacts.Get("")
	if err == nil {
		t.Fatal("an empty id is refused before any request")
	}
}

func TestLiveContactSegmentsAndAudiences(t *testing.T) {
	env := live(t)
	client := env.client()
	contact, err := client.Contacts.Create(&CreateContactRequest{Email: recipient()})
	if err != nil {
		t.Fatalf("create contact: %v", err)
	}
	t.Cleanup(func() { _, _ = client.Contacts.Remove(contact.Id) })

	// An audience is a segment: made on one path, it is found on the other.
	audience, err := client.Audiences.Create(&CreateAudienceRequest{Name: unique("go-audience")})
	if err != nil || audience.Object != "segment" {
		t.Fatalf("create audience: %+v (%v)", audience, err)
	}
	t.Cleanup(func() { _, _ = client.Audiences.Remove(audience.Id) })
	if got, err := client.Segments.Get(audience.Id); err != nil || got.Name != audience.Name {
		t.Fatalf("the audience as a segment: %+v (%v)", got, err)
	}
	renamed, err := client.Segments.Update(audience.Id, &UpdateSegmentRequest{Name: audience.Name + "-renamed"})
	if err != nil || renamed.Name != audience.Name+"-renamed" {
		t.Fatalf("rename: %+v (%v)", renamed, err)
	}
	if got, err := client.Audiences.Get(audience.Id); err != nil || got.Name != renamed.Name {
		t.Fatalf("get audience: %+v (%v)", got, err)
	}
	if listed, err := client.Audiences.List(&ListOptions{Limit: 100}); err != nil || !containsSegment(listed.Data, audience.Id) {
		t.Fatalf("list audiences: %+v (%v)", listed, err)
	}

	added, err := client.Contacts.Segments.Add(contact.Email, audience.Id)
	if err != nil || added.Id != audience.Id || added.ContactId != contact.Id {
		t.Fatalf("add to segment: %+v (%v)", added, err)
	}
	if of, err := client.Contacts.Segments.List(contact.Id, nil); err != nil || len(of.Data) != 1 || of.Data[0].Id != audience.Id {
		t.Fatalf("the contact's segments: %+v (%v)", of, err)
	}
	if members, err := client.Segments.ListContacts(audience.Id, nil); err != nil || len(members.Data) != 1 || members.Data[0].Id != contact.Id {
		t.Fatalf("the segment's contacts: %+v (%v)", members, err)
	}
	taken, err := client.Contacts.Segments.Remove(contact.Id, audience.Id)
	if err != nil || !taken.Deleted || taken.ContactId != contact.Id {
		t.Fatalf("remove from segment: %+v (%v)", taken, err)
	}
	if of, err := client.Contacts.Segments.List(contact.Email, nil); err != nil || len(of.Data) != 0 {
		t.Fatalf("the contact's segments after: %+v (%v)", of, err)
	}

	removed, err := client.Segments.Remove(audience.Id)
	if err != nil || !removed.Deleted || removed.Object != "segment" {
		t.Fatalf("remove segment: %+v (%v)", removed, err)
	}
	if still, err := client.Contacts.Get(contact.Id); err != nil || still.Id != contact.Id {
		t.Fatalf("the contact outlives its segment: %+v (%v)", still, err)
	}
	_, err = client.Audiences.Get(audience.Id)
	apiError(t, err, NameNotFound, 404)
}

func containsSegment(segments []Segment, id string) bool {
	for _, segment := range segments {
		if segment.Id == id {
			return true
		}
	}
	return false
}

func TestLiveTopicsAndSendingWithATopic(t *testing.T) {
	env := live(t)
	client := env.client()
	topic, err := client.Topics.Create(&CreateTopicRequest{Name: unique("go-news"), Description: "Monthly news", DefaultSubscription: SubscriptionOptIn, Visibility: "public"})
	if err != nil || topic.Object != "topic" || topic.DefaultSubscription != SubscriptionOptIn {
		t.Fatalf("create topic: %+v (%v)", topic, err)
	}
	t.Cleanup(func() { _, _ = client.Topics.Remove(topic.Id) })
	updated, err := client.Topics.Update(topic.Id, &UpdateTopicRequest{Description: Null[string](), Visibility: "private"})
	if err != nil || updated.Description != "" || updated.Visibility != "private" || updated.Name != topic.Name {
		t.Fatalf("update topic: %+v (%v)", updated, err)
	}
	if got, err := client.Topics.Get(topic.Id); err != nil || got.Visibility != "private" {
		t.Fatalf("get topic: %+v (%v)", got, err)
	}
	if listed, err := client.Topics.List(&ListOptions{Limit: 100}); err != nil || len(listed.Data) == 0 {
		t.Fatalf("list topics: %+v (%v)", listed, err)
	}

	left, stayed := recipient(), recipient()
	for _, address := range []string{left, stayed} {
		contact, err := client.Contacts.Create(&CreateContactRequest{Email: address})
		if err != nil {
			t.Fatalf("create contact: %v", err)
		}
		t.Cleanup(func() { _, _ = client.Contacts.Remove(contact.Id) })
	}
	if choices, err := client.Contacts.Topics.List(left, nil); err != nil || subscriptionOf(choices.Data, topic.Id) != SubscriptionOptIn {
		t.Fatalf("the default choice: %+v (%v)", choices, err)
	}
	if ref, err := client.Contacts.Topics.Update(left, []TopicSubscription{{Id: topic.Id, Subscription: SubscriptionOptOut}}); err != nil || ref.Id == "" {
		t.Fatalf("leave the topic: %+v (%v)", ref, err)
	}
	if choices, err := client.Contacts.Topics.List(left, nil); err != nil || subscriptionOf(choices.Data, topic.Id) != SubscriptionOptOut {
		t.Fatalf("the choice after: %+v (%v)", choices, err)
	}

	// The contact who left the topic is recorded suppressed; the other is sent to.
	sent, err := client.Emails.Send(&SendEmailRequest{From: env.from, To: []string{left, stayed}, Subject: "News", Text: "News", TopicId: topic.Id})
	if err != nil {
		t.Fatalf("send with a topic: %v", err)
	}
	email, err := client.Emails.Get(sent.Id)
	if err != nil || email.TopicId != topic.Id {
		t.Fatalf("get: %+v (%v)", email, err)
	}
	statuses := map[string]RecipientStatus{}
	for _, r := range email.Recipients {
		statuses[r.Email] = r.Status
	}
	if statuses[left] != "suppressed" || statuses[stayed] == "suppressed" {
		t.Fatalf("recipients: %+v", email.Recipients)
	}

	removed, err := client.Topics.Remove(topic.Id)
	if err != nil || !removed.Deleted || removed.Object != "topic" {
		t.Fatalf("remove topic: %+v (%v)", removed, err)
	}
}

func subscriptionOf(topics []ContactTopic, id string) string {
	for _, topic := range topics {
		if topic.Id == id {
			return topic.Subscription
		}
	}
	return ""
}

func TestLiveContactProperties(t *testing.T) {
	env := live(t)
	client := env.client()
	key := "seats_" + unique("p")[2:]
	property, err := client.ContactProperties.Create(&CreateContactPropertyRequest{Key: key, Type: ContactPropertyNumber, FallbackValue: 1})
	if err != nil || property.Key != key || property.Type != ContactPropertyNumber || property.FallbackValue != float64(1) {
		t.Fatalf("create: %+v (%v)", property, err)
	}
	updated, err := client.ContactProperties.Update(property.Id, &UpdateContactPropertyRequest{FallbackValue: Null[any]()})
	if err != nil || updated.FallbackValue != nil {
		t.Fatalf("clear the fallback: %+v (%v)", updated, err)
	}
	if got, err := client.ContactProperties.Get(property.Id); err != nil || got.Key != key {
		t.Fatalf("get: %+v (%v)", got, err)
	}
	if listed, err := client.ContactProperties.List(nil); err != nil || len(listed.Data) == 0 {
		t.Fatalf("list: %+v (%v)", listed, err)
	}
	_, err = client.ContactProperties.Create(&CreateContactPropertyRequest{Key: "9 not a key", Type: ContactPropertyString})
	apiError(t, err, NameValidationError, 400)
	removed, err := client.ContactProperties.Remove(property.Id)
	if err != nil || !removed.Deleted || removed.Object != "contact_property" {
		t.Fatalf("remove: %+v (%v)", removed, err)
	}
}

func TestLiveContactImports(t *testing.T) {
	env := live(t)
	client := env.client()
	segment, err := client.Segments.Create(&CreateSegmentRequest{Name: unique("go-imported")})
	if err != nil {
		t.Fatalf("create segment: %v", err)
	}
	t.Cleanup(func() { _, _ = client.Segments.Remove(segment.Id) })
	first, second := recipient(), recipient()
	csv := fmt.Sprintf("E-mail,Given name\n%s,Ada\n%s,Grace\nnot-an-address,Nobody\n", first, second)
	created, err := client.Contacts.Imports.Create(&CreateContactImportRequest{
		File:      []byte(csv),
		ColumnMap: map[string]any{"email": "E-mail", "first_name": "Given name"},
		Segments:  []SegmentRef{{Id: segment.Id}},
	})
	if err != nil || created.Object != "contact_import" || created.Id == "" {
		t.Fatalf("create: %+v (%v)", created, err)
	}
	t.Cleanup(func() {
		_, _ = client.Contacts.Remove(first)
		_, _ = client.Contacts.Remove(second)
	})
	var done *ContactImport
	eventually(t, 30*time.Second, "the import completes", func() (bool, error) {
		got, err := client.Contacts.Imports.Get(created.Id)
		done = got
		return err == nil && got.Status == ContactImportCompleted, err
	})
	if done.Counts.Created != 2 || done.Counts.Failed != 1 || len(done.Errors) != 1 || done.Errors[0].Line != 4 {
		t.Fatalf("counts: %+v", done)
	}
	if contact, err := client.Contacts.Get(second); err != nil || contact.FirstName != "Grace" {
		t.Fatalf("an imported contact: %+v (%v)", contact, err)
	}
	if members, err := client.Contacts.List(&ListContactsOptions{SegmentId: segment.Id}); err != nil || len(members.Data) != 2 {
		t.Fatalf("imported into the segment: %+v (%v)", members, err)
	}
	listed, err := client.Contacts.Imports.List(&ListContactImportsOptions{Status: ContactImportCompleted, Limit: 100})
	if err != nil || len(listed.Data) == 0 || listed.Data[0].Status != ContactImportCompleted {
		t.Fatalf("list: %+v (%v)", listed, err)
	}
	_, err = client.Contacts.Imports.Create(&CreateContactImportRequest{File: []byte(csv), OnConflict: "overwrite"})
	apiError(t, err, NameValidationError, 400)
	if _, err := client.Contacts.Imports.Create(&CreateContactImportRequest{}); err == nil {
		t.Fatal("an import without a file is refused before any request")
	}
}
