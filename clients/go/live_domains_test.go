// Live tests of domains: the round trip (made, found by name, listed, tracking changed, verified, removed), and
// deliverability: a domain's tracking host, TLS policy and Ed25519 key, the sending health, DMARC reports and summary,
// and IP pools (none configured: naming one is refused, null clears it).
package mailroom

import (
	"context"
	"net/mail"
	"strings"
	"testing"
)

func TestLiveDomainsRoundTrip(t *testing.T) {
	env := live(t)
	client := env.client()
	name := unique("go") + ".example.net"
	created, err := client.Domains.Create(&CreateDomainRequest{Name: name})
	if err != nil || created.Id == "" || created.Name != name || len(created.Records) == 0 {
		t.Fatalf("create: %+v (%v)", created, err)
	}
	t.Cleanup(func() {
		_, _ = client.Domains.RemoveWithOptions(context.Background(), created.Id, &RemoveDomainOptions{Force: true})
	})

	byName, err := client.Domains.Get(name)
	if err != nil || byName.Id != created.Id {
		t.Fatalf("get by name: %+v (%v)", byName, err)
	}
	listed, err := client.Domains.List(&ListOptions{Limit: 100})
	if err != nil || !containsDomain(listed.Data, created.Id) {
		t.Fatalf("list: %+v (%v)", listed, err)
	}
	updated, err := client.Domains.Update(created.Id, &UpdateDomainRequest{OpenTracking: Bool(true), ClickTracking: Bool(false)})
	if err != nil || !updated.OpenTracking || updated.ClickTracking {
		t.Fatalf("update: %+v (%v)", updated, err)
	}
	verified, err := client.Domains.Verify(created.Id)
	if err != nil || verified.Id != created.Id || verified.Status == "" {
		t.Fatalf("verify: %+v (%v)", verified, err)
	}
	removed, err := client.Domains.Remove(created.Id)
	if err != nil || !removed.Deleted || removed.Id != created.Id {
		t.Fatalf("remove: %+v (%v)", removed, err)
	}
	_, err = client.Domains.Get(created.Id)
	apiError(t, err, NameNotFound, 404)
}

// A domain of the test's own gets a tracking host, the enforced TLS policy and an Ed25519 key (example.com, which
// every suite sends from, keeps its settings); the sending health lists it ok; the verified sending domain has no
// DMARC report yet, so its list and summary are empty. The server configures no IP pool: the list is empty, naming
// one is a validation error, and null clears the domain's.
func TestLiveDeliverability(t *testing.T) {
	env := live(t)
	client := env.client()
	name := unique("go-dlv") + ".example.net"
	created, err := client.Domains.Create(&CreateDomainRequest{Name: name})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	t.Cleanup(func() {
		_, _ = client.Domains.RemoveWithOptions(context.Background(), created.Id, &RemoveDomainOptions{Force: true})
	})
	if created.TrackingSubdomain != "" || created.Tls != TlsOpportunistic || created.Dkim.Ed25519 || created.IpPool != "" || created.Health.Status != HealthOk ||
		created.Health.Reason != "" || created.Health.Window == "" || len(trackingRecords(created)) != 0 {
		t.Fatalf("a new domain's defaults: %+v", created)
	}
	rsaKeys := countRecords(created, "DKIM")

	updated, err := client.Domains.Update(created.Id, &UpdateDomainRequest{TrackingSubdomain: Value("links"), Tls: TlsEnforced})
	if err != nil || updated.TrackingSubdomain != "links" || updated.Tls != TlsEnforced || updated.Dkim.Ed25519 {
		t.Fatalf("update: %+v (%v)", updated, err)
	}
	tracking := trackingRecords(updated)
	if len(tracking) != 1 || tracking[0].Type != "CNAME" || tracking[0].Name != "links."+name || tracking[0].Value == "" {
		t.Fatalf("the tracking host's CNAME among the records: %+v", updated.Records)
	}
	// What a call leaves out stays: the tracking host and the TLS policy survive the key's change.
	signed, err := client.Domains.Update(created.Id, &UpdateDomainRequest{Dkim: &UpdateDomainOptionsDkim{Ed25519: Bool(true)}})
	if err != nil || !signed.Dkim.Ed25519 || signed.TrackingSubdomain != "links" || signed.Tls != TlsEnforced || countRecords(signed, "DKIM") != rsaKeys+1 {
		t.Fatalf("the Ed25519 key: %+v (%v)", signed, err)
	}
	if got, err := client.Domains.Get(name); err != nil || !got.Dkim.Ed25519 || got.Tls != TlsEnforced {
		t.Fatalf("get: %+v (%v)", got, err)
	}

	from, err := mail.ParseAddress(env.from)
	if err != nil {
		t.Fatalf("MAILROOM_FROM %q: %v", env.from, err)
	}
	sendingDomain := from.Address[strings.LastIndex(from.Address, "@")+1:]
	overview, err := client.Sending.Health()
	if err != nil || overview.Object != "sending_health" || overview.Health.Status == "" || overview.Health.Window == "" {
		t.Fatalf("health: %+v (%v)", overview, err)
	}
	listed := map[string]DomainHealthEntry{}
	for _, entry := range overview.Domains {
		listed[entry.Name] = entry
	}
	if ours, ok := listed[name]; !ok || ours.Id != created.Id || ours.Health.Status != HealthOk {
		t.Fatalf("the new domain listed ok: %+v", overview.Domains)
	}
	if listed[sendingDomain].Health.Status != HealthOk {
		t.Fatalf("the sending domain listed ok: %+v", overview.Domains)
	}

	summary, err := client.Domains.DmarcSummary(sendingDomain, &DmarcSummaryOptions{Days: 7})
	if err != nil || summary.Object != "dmarc_summary" || summary.Domain != sendingDomain || summary.Days != 7 || summary.Reports != 0 ||
		summary.Data == nil || len(summary.Data) != 0 {
		t.Fatalf("dmarc summary: %+v (%v)", summary, err)
	}
	reports, err := client.Domains.DmarcReports(sendingDomain, &ListDmarcReportsOptions{Limit: 10})
	if err != nil || reports.Object != "list" || reports.HasMore || reports.Data == nil || len(reports.Data) != 0 {
		t.Fatalf("dmarc reports: %+v (%v)", reports, err)
	}
	if byDefault, err := client.Domains.DmarcSummary(created.Id, nil); err != nil || byDefault.Days != 7 {
		t.Fatalf("seven days unless asked: %+v (%v)", byDefault, err)
	}
	_, err = client.Domains.DmarcSummary(created.Id, &DmarcSummaryOptions{Days: 91})
	if refused := apiError(t, err, NameValidationError, 400); !hasDetail(refused.Details, "days") {
		t.Fatalf("days out of range is named in details: %+v", refused.Details)
	}
	_, err = client.Domains.DmarcReports(unique("go")+".example.net", nil)
	apiError(t, err, NameNotFound, 404)
	pools, err := client.IpPools.List()
	if err != nil || pools.Object != "list" || pools.Data == nil || len(pools.Data) != 0 {
		t.Fatalf("ip pools: %+v (%v)", pools, err)
	}
	_, err = client.Domains.Update(created.Id, &UpdateDomainRequest{IpPool: Value("nowhere")})
	if refused := apiError(t, err, NameValidationError, 400); !hasDetail(refused.Details, "ip_pool") {
		t.Fatalf("an unknown pool is named in details: %+v", refused.Details)
	}
	cleared, err := client.Domains.Update(created.Id, &UpdateDomainRequest{IpPool: Null[string]()})
	if err != nil || cleared.IpPool != "" || cleared.TrackingSubdomain != "links" || cleared.Tls != TlsEnforced {
		t.Fatalf("ip pool cleared: %+v (%v)", cleared, err)
	}

	sending := NewClient(env.sendingKey, WithBaseURL(env.baseURL))
	_, err = sending.Sending.Health()
	apiError(t, err, NameInsufficientScope, 403)
	_, err = sending.IpPools.List()
	apiError(t, err, NameInsufficientScope, 403)

	undone, err := client.Domains.Update(created.Id, &UpdateDomainRequest{TrackingSubdomain: Null[string](), Tls: TlsOpportunistic, Dkim: &UpdateDomainOptionsDkim{Ed25519: Bool(false)}})
	if err != nil || undone.TrackingSubdomain != "" || undone.Tls != TlsOpportunistic || undone.Dkim.Ed25519 || len(trackingRecords(undone)) != 0 {
		t.Fatalf("undone: %+v (%v)", undone, err)
	}
}

func trackingRecords(domain *Domain) []DomainRecord {
	var records []DomainRecord
	for _, record := range domain.Records {
		if record.Record == "Tracking" {
			records = append(records, record)
		}
	}
	return records
}

func countRecords(domain *Domain, kind string) int {
	count := 0
	for _, record := range domain.Records {
		if record.Record == kind {
			count++
		}
	}
	return count
}

func containsDomain(domains []Domain, id string) bool {
	for _, domain := range domains {
		if domain.Id == id {
			return true
		}
	}
	return false
}
