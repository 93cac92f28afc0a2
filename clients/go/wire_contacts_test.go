// Wire tests of the audience API and the request log, for what the live tests cannot see: an import's
// multipart/form-data body (its JSON fields and the file, the same on a retried attempt), a contact's topic choices
// sent as a bare list, and the query strings of contacts, logs and metrics.
package mailroom

import (
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestWireContactImportIsMultipartAndRetriedWhole(t *testing.T) {
	type upload struct {
		fields map[string]string
		file   string
		name   string
	}
	var uploads []upload
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mediaType, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mediaType != "multipart/form-data" || r.URL.Path != "/v1/contacts/imports" {
			t.Errorf("request %s %s (%s)", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
		}
		got := upload{fields: map[string]string{}}
		reader := multipart.NewReader(r.Body, params["boundary"])
		for {
			part, err := reader.NextPart()
			if err != nil {
				break
			}
			data, _ := io.ReadAll(part)
			if part.FormName() == "file" {
				got.file, got.name = string(data), part.FileName()
			} else {
				got.fields[part.FormName()] = string(data)
			}
		}
		uploads = append(uploads, got)
		if len(uploads) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte(`{"object":"contact_import","id":"imp_1"}`))
	}))
	defer server.Close()

	client := NewClient("mr_test_x", WithBaseURL(server.URL), WithRetries(1), WithRetryBackoff(time.Millisecond, time.Millisecond))
	created, err := client.Contacts.Imports.Create(&CreateContactImportRequest{
		File:       []byte("email\nada@example.org\n"),
		ColumnMap:  map[string]any{"email": "E-mail"},
		OnConflict: "skip",
		Segments:   []SegmentRef{{Id: "seg_1"}},
		Topics:     []TopicSubscription{{Id: "top_1", Subscription: SubscriptionOptOut}},
	})
	if err != nil || created.Id != "imp_1" {
		t.Fatalf("create: %+v (%v)", created, err)
	}
	if len(uploads) != 2 {
		t.Fatalf("attempts: %d", len(uploads))
	}
	for i, got := range uploads {
		if got.file != "email\nada@example.org\n" || got.name != "contacts.csv" ||
			got.fields["column_map"] != `{"email":"E-mail"}` || got.fields["on_conflict"] != "skip" ||
			got.fields["segments"] != `[{"id":"seg_1"}]` ||
			got.fields["topics"] != `[{"id":"top_1","subscription":"opt_out"}]` {
			t.Fatalf("attempt %d sent %+v", i+1, got)
		}
	}
}

func TestWireContactTopicsAndQueries(t *testing.T) {
	rec := &requestRecorder{}
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.record(r)
		answer := map[string]any{"object": "list", "has_more": false, "data": []any{}, "id": "c_1"}
		_ = json.NewEncoder(w).Encode(answer)
	}))
	defer server.Close()
	client := NewClient("mr_test_x", WithBaseURL(server.URL))

	if _, err := client.Contacts.Topics.Update("ada@example.org", []TopicSubscription{{Id: "t1", Subscription: SubscriptionOptIn}}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Contacts.List(&ListContactsOptions{Limit: 5, SegmentId: "s1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Logs.List(&ListLogsOptions{Status: 422, Method: "POST", ApiKeyId: "k1", Endpoint: "/emails"}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Emails.Metrics(&EmailMetricsOptions{Metrics: []string{"sent", "open_rate"}, Dimensions: []string{"period"}, Granularity: GranularityWeekly}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Contacts.Segments.Remove("a b@example.org", "s/1"); err != nil {
		t.Fatal(err)
	}
	rec.expect(t, []recordedRequest{
		{"PATCH", "/v1/contacts/ada@example.org/topics", `[{"id":"t1","subscription":"opt_in"}]`},
		{"GET", "/v1/contacts?limit=5&segment_id=s1", ""},
		{"GET", "/v1/logs?api_key_id=k1&endpoint=%2Femails&method=POST&status=422", ""},
		{"GET", "/v1/emails/metrics?dimensions=period&granularity=weekly&metrics=sent%2Copen_rate", ""},
		// An address and an id stay one path segment each.
		{"DELETE", "/v1/contacts/a%20b@example.org/segments/s%2F1", ""},
	})
}
