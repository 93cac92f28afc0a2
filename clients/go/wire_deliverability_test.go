// Deliverability on the wire, against a local HTTP server (no Mailroom needed): a domain's settings (the tracking
// host, TLS policy, Ed25519 key, IP pool; null kept), the sending health, DMARC reports, their rows and the summary,
// and the IP pools listed with their addresses' null fields.
package mailroom

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestDeliverabilityPathsBodiesAndNulls(t *testing.T) {
	var recorder requestRecorder
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		recorder.record(r)
		w.Header().Set("Content-Type", "application/json")
		health := `{"bounce_rate":0.05,"complaint_rate":0,"window":"24h","recipients":400,"status":"warning","reason":"bounce rate 5.0 % over 24 h","evaluated_at":"2026-01-01T00:00:00.000Z"}`
		fresh := `{"bounce_rate":0,"complaint_rate":0,"window":"24h","recipients":0,"status":"ok","reason":null,"evaluated_at":null}`
		switch {
		case r.URL.Path == "/v1/sending/health":
			_, _ = w.Write([]byte(`{"object":"sending_health","health":` + health + `,"domains":[{"id":"d-1","name":"example.com","health":` + fresh + `}]}`))
		case strings.HasSuffix(r.URL.Path, "/rows"):
			_, _ = w.Write([]byte(`{"object":"list","has_more":false,"data":[{"id":"w-2","source_ip":"203.0.113.6","count":3,` +
				`"disposition":"none","dkim":"pass","spf":"pass","header_from":"example.com"}]}`))
		case strings.HasSuffix(r.URL.Path, "/dmarc"):
			_, _ = w.Write([]byte(`{"object":"list","has_more":true,"data":[{"object":"dmarc_report","id":"r-2","reporter":"google.com","report_id":"123",` +
				`"begin":"2026-01-01T00:00:00.000Z","end":"2026-01-02T00:00:00.000Z","rows":[{"source_ip":"203.0.113.5","count":12,` +
				`"disposition":"none","dkim":"pass","spf":"fail","header_from":"example.com"}],"row_count":40}]}`))
		case strings.HasSuffix(r.URL.Path, "/dmarc/summary"):
			_, _ = w.Write([]byte(`{"object":"dmarc_summary","domain":"example.com","days":7,"reports":3,"data":[{"source_ip":"203.0.113.5","messages":12,"aligned_pass_rate":0.75,"own":true}]}`))
		default:
			_, _ = w.Write([]byte(`{"object":"domain","id":"d-1","name":"example.com","status":"verified","records":[{"record":"Tracking","name":"links.example.com",` +
				`"type":"CNAME","value":"mail.example.net","ttl":"Auto","status":"pending","found":["elsewhere.example.org"]},{"record":"DKIM","name":"s._domainkey.example.com",` +
				`"type":"TXT","value":"v=DKIM1","ttl":"Auto","status":"pending","found":null}],"dkim":{"ed25519":true},"tracking_subdomain":"links",` +
				`"tls":"enforced","health":` + fresh + `}`))
		}
	}))
	defer server.Close()
	client := NewClient("mr_test_key", WithBaseURL(server.URL))
	ctx := context.Background()

	domain, err := client.Domains.Update("example.com", &UpdateDomainRequest{TrackingSubdomain: Value("links"), Tls: TlsEnforced, Dkim: &UpdateDomainOptionsDkim{Ed25519: Bool(true)}})
	if err != nil || !domain.Dkim.Ed25519 || domain.TrackingSubdomain != "links" || domain.Tls != TlsEnforced || domain.Health.Status != HealthOk ||
		domain.Health.EvaluatedAt != "" || domain.Health.Window != "24h" {
		t.Fatalf("update: %+v (%v)", domain, err)
	}
	if r := domain.Records[0]; r.Record != "Tracking" || r.Type != "CNAME" || len(r.Found) != 1 || r.Found[0] != "elsewhere.example.org" || domain.Records[1].Found != nil {
		t.Fatalf("records: %+v", domain.Records)
	}
	if _, err := client.Domains.UpdateWithContext(ctx, "d/1", &UpdateDomainRequest{TrackingSubdomain: Null[string](), Dkim: &UpdateDomainOptionsDkim{Ed25519: Bool(false)}}); err != nil {
		t.Fatalf("update with a null tracking host: %v", err)
	}
	if _, err := client.Domains.Create(&CreateDomainRequest{Name: "example.org", TrackingSubdomain: "links", Tls: TlsOpportunistic, Dkim: &CreateDomainOptionsDkim{Ed25519: Bool(true)}}); err != nil {
		t.Fatalf("create: %v", err)
	}
	overview, err := client.Sending.Health()
	if err != nil || overview.Object != "sending_health" || overview.Health.Status != HealthWarning || overview.Health.BounceRate != 0.05 ||
		overview.Health.Recipients != 400 || overview.Health.Reason == "" || len(overview.Domains) != 1 ||
		overview.Domains[0].Name != "example.com" || overview.Domains[0].Health.Reason != "" {
		t.Fatalf("health: %+v (%v)", overview, err)
	}
	if _, err := client.Sending.HealthWithContext(ctx); err != nil {
		t.Fatalf("health with a context: %v", err)
	}
	reports, err := client.Domains.DmarcReports("example.com", nil)
	if err != nil || !reports.HasMore || len(reports.Data) != 1 || reports.Data[0].ReportId != "123" || len(reports.Data[0].Rows) != 1 ||
		reports.Data[0].RowCount != 40 ||
		reports.Data[0].Rows[0] != (DmarcRow{SourceIp: "203.0.113.5", Count: 12, Disposition: "none", Dkim: "pass", Spf: "fail", HeaderFrom: "example.com"}) {
		t.Fatalf("dmarc reports: %+v (%v)", reports, err)
	}
	if _, err := client.Domains.DmarcReportsWithContext(ctx, "d/1", &ListDmarcReportsOptions{Limit: 5, Before: "r-2"}); err != nil {
		t.Fatalf("dmarc reports paged: %v", err)
	}
	if _, err := client.Domains.DmarcReports("d/1", &ListDmarcReportsOptions{After: "r-2"}); err != nil {
		t.Fatalf("dmarc reports after: %v", err)
	}
	rows, err := client.Domains.DmarcReportRows("d/1", "r/2", &ListOptions{Limit: 100, After: "w-1"})
	if err != nil || len(rows.Data) != 1 || rows.Data[0].Id != "w-2" || rows.Data[0].Count != 3 || rows.Data[0].SourceIp != "203.0.113.6" {
		t.Fatalf("dmarc report rows: %+v (%v)", rows, err)
	}
	if _, err := client.Domains.DmarcReportRows("d/1", "", nil); err == nil {
		t.Fatal("an empty report id is an error")
	}
	summary, err := client.Domains.DmarcSummary("example.com", nil)
	if err != nil || summary.Object != "dmarc_summary" || summary.Days != 7 || summary.Reports != 3 || len(summary.Data) != 1 ||
		summary.Data[0] != (DmarcSource{SourceIp: "203.0.113.5", Messages: 12, AlignedPassRate: 0.75, Own: true}) {
		t.Fatalf("dmarc summary: %+v (%v)", summary, err)
	}
	if _, err := client.Domains.DmarcSummaryWithContext(ctx, "d/1", &DmarcSummaryOptions{Days: 30}); err != nil {
		t.Fatalf("dmarc summary of 30 days: %v", err)
	}
	// An empty id would address another route: refused before any request.
	if _, err := client.Domains.DmarcReports("", nil); err == nil {
		t.Fatal("an empty domain id is an error")
	}
	if _, err := client.Domains.DmarcSummary("", &DmarcSummaryOptions{Days: 7}); err == nil {
		t.Fatal("an empty domain id is an error")
	}

	want := []recordedRequest{
		{"PATCH", "/v1/domains/example.com", `{"tracking_subdomain":"links","tls":"enforced","dkim":{"ed25519":true}}`},
		{"PATCH", "/v1/domains/d%2F1", `{"tracking_subdomain":null,"dkim":{"ed25519":false}}`},
		{"POST", "/v1/domains", `{"name":"example.org","tracking_subdomain":"links","tls":"opportunistic","dkim":{"ed25519":true}}`},
		{"GET", "/v1/sending/health", ""},
		{"GET", "/v1/sending/health", ""},
		{"GET", "/v1/domains/example.com/dmarc", ""},
		{"GET", "/v1/domains/d%2F1/dmarc?before=r-2&limit=5", ""},
		{"GET", "/v1/domains/d%2F1/dmarc?after=r-2", ""},
		{"GET", "/v1/domains/d%2F1/dmarc/r%2F2/rows?after=w-1&limit=100", ""},
		{"GET", "/v1/domains/example.com/dmarc/summary", ""},
		{"GET", "/v1/domains/d%2F1/dmarc/summary?days=30", ""},
	}
	recorder.expect(t, want)
}

func TestIpPoolsPathsBodiesAndNulls(t *testing.T) {
	var recorder requestRecorder
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		recorder.record(r)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/ip-pools" {
			_, _ = w.Write([]byte(`{"object":"list","data":[{"name":"main","warmup":"30d","addresses":[` +
				`{"address":"203.0.113.5","ehlo_name":"mta1.example.com","warmup_day":3,"daily_cap":200,"today":{"gmail":12,"other":3},` +
				`"backed_off":[{"provider":"gmail","messages_per_minute":300,"until":"2026-01-01T01:00:00.000Z"}]},` +
				`{"address":"203.0.113.6","ehlo_name":null,"warmup_day":null,"daily_cap":null,"today":{},"backed_off":[]}]}]}`))
			return
		}
		_, _ = w.Write([]byte(`{"object":"domain","id":"d-1","name":"example.com","status":"verified","records":[],"ip_pool":"main"}`))
	}))
	defer server.Close()
	client := NewClient("mr_test_key", WithBaseURL(server.URL))
	ctx := context.Background()

	pools, err := client.IpPools.List()
	if err != nil || pools.Object != "list" || len(pools.Data) != 1 || pools.Data[0].Name != "main" || pools.Data[0].Warmup != "30d" ||
		len(pools.Data[0].Addresses) != 2 {
		t.Fatalf("ip pools: %+v (%v)", pools, err)
	}
	warming, warm := pools.Data[0].Addresses[0], pools.Data[0].Addresses[1]
	if warming.Address != "203.0.113.5" || warming.EhloName != "mta1.example.com" || warming.WarmupDay == nil || *warming.WarmupDay != 3 ||
		warming.DailyCap == nil || *warming.DailyCap != 200 || warming.Today["gmail"] != 12 || warming.Today["other"] != 3 ||
		len(warming.BackedOff) != 1 || warming.BackedOff[0] != (IpPoolBackOff{Provider: "gmail", MessagesPerMinute: 300, Until: "2026-01-01T01:00:00.000Z"}) {
		t.Fatalf("a warming address: %+v", warming)
	}
	if warm.EhloName != "" || warm.WarmupDay != nil || warm.DailyCap != nil || len(warm.Today) != 0 || warm.BackedOff == nil || len(warm.BackedOff) != 0 {
		t.Fatalf("a warm address: %+v", warm)
	}
	if _, err := client.IpPools.ListWithContext(ctx); err != nil {
		t.Fatalf("ip pools with a context: %v", err)
	}
	domain, err := client.Domains.Update("example.com", &UpdateDomainRequest{IpPool: Value("main")})
	if err != nil || domain.IpPool != "main" {
		t.Fatalf("update: %+v (%v)", domain, err)
	}
	if _, err := client.Domains.UpdateWithContext(ctx, "d/1", &UpdateDomainRequest{IpPool: Null[string]()}); err != nil {
		t.Fatalf("update with a null ip pool: %v", err)
	}
	if _, err := client.Domains.Create(&CreateDomainRequest{Name: "example.org", IpPool: "main"}); err != nil {
		t.Fatalf("create: %v", err)
	}

	want := []recordedRequest{
		{"GET", "/v1/ip-pools", ""},
		{"GET", "/v1/ip-pools", ""},
		{"PATCH", "/v1/domains/example.com", `{"ip_pool":"main"}`},
		{"PATCH", "/v1/domains/d%2F1", `{"ip_pool":null}`},
		{"POST", "/v1/domains", `{"name":"example.org","ip_pool":"main"}`},
	}
	recorder.expect(t, want)
}
