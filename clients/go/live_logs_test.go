// Live tests of the request log, usage and email metrics: a refused request found in the log with its answer, the
// organisation's usage, and metrics by day (a timezone the server cannot count in refused by name).
package mailroom

import (
	"testing"
	"time"
)

func TestLiveLogsListAndGet(t *testing.T) {
	env := live(t)
	client := env.client()
	missing := recipient()
	_, err := client.Contacts.Get(missing)
	apiError(t, err, NameNotFound, 404)

	// Entries are written shortly after the answer (in batches), so the test waits for this one.
	var entry LogListItem
	eventually(t, 15*time.Second, "the request appears in the log", func() (bool, error) {
		page, err := client.Logs.List(&ListLogsOptions{Status: 404, Method: "GET", Limit: 100})
		if err != nil {
			return false, err
		}
		for _, item := range page.Data {
			if item.Endpoint == "/contacts/"+missing {
				entry = item
				return true, nil
			}
		}
		return false, nil
	})
	if entry.ResponseStatus != 404 || entry.Method != "GET" || entry.UserAgent != userAgent || entry.ApiKeyId == "" {
		t.Fatalf("list item: %+v", entry)
	}
	got, err := client.Logs.Get(entry.Id)
	if err != nil || got.Object != "log" || got.Id != entry.Id || got.RequestBody != nil {
		t.Fatalf("get: %+v (%v)", got, err)
	}
	answer, ok := got.ResponseBody.(map[string]any)
	if !ok || answer["name"] != NameNotFound {
		t.Fatalf("the logged answer: %#v", got.ResponseBody)
	}
	if other, err := client.Logs.List(&ListLogsOptions{Status: 404, ApiKeyId: "00000000-0000-4000-8000-000000000000"}); err != nil || len(other.Data) != 0 {
		t.Fatalf("another key's requests: %+v (%v)", other, err)
	}
	_, err = client.Logs.Get("00000000-0000-4000-8000-000000000000")
	apiError(t, err, NameNotFound, 404)
}

func TestLiveUsageAndMetrics(t *testing.T) {
	env := live(t)
	client := env.client()
	if _, err := client.Emails.Send(&SendEmailRequest{From: env.from, To: []string{recipient()}, Subject: "Counted", Text: "Counted"}); err != nil {
		t.Fatalf("send: %v", err)
	}
	usage, err := client.Usage.Get()
	if err != nil || usage.Object != "usage" || usage.Emails.Daily.Used < 1 || usage.Domains.Used < 1 || usage.RateLimit.Limit < 1 {
		t.Fatalf("usage: %+v (%v)", usage, err)
	}

	today := time.Now().UTC().Format("2006-01-02")
	var metrics *EmailMetrics
	// The statistics count a message as sent once the smarthost took it.
	eventually(t, 15*time.Second, "the send is counted", func() (bool, error) {
		var err error
		metrics, err = client.Emails.Metrics(&EmailMetricsOptions{
			StartDate:   time.Now().UTC().AddDate(0, 0, -2).Format("2006-01-02"),
			EndDate:     today,
			Granularity: GranularityDaily,
			Metrics:     []string{"sent", "delivery_rate"},
			Dimensions:  []string{"period"},
		})
		return err == nil && metrics.Totals.Sent >= 1, err
	})
	if metrics.Object != "metrics" || len(metrics.Data) != 3 {
		t.Fatalf("metrics: %+v", metrics)
	}
	if len(metrics.Metrics) != 2 || metrics.Metrics[0] != "sent" || metrics.Metrics[1] != "delivery_rate" {
		t.Fatalf("the metrics asked for: %v", metrics.Metrics)
	}
	if last := metrics.Data[len(metrics.Data)-1]; last.Sent < 1 || last.Period[:10] != today {
		t.Fatalf("today's row: %+v", last)
	}
	_, err = client.Emails.Metrics(&EmailMetricsOptions{Timezone: "Europe/Paris"})
	invalid := apiError(t, err, NameValidationError, 400)
	if !hasDetail(invalid.Details, "timezone") {
		t.Fatalf("details: %+v", invalid.Details)
	}
}
