// Live tests of suppressions: one added, found by id and by address, listed by search and origin, removed; and
// batches added and removed (an address never suppressed answers deleted false).
package mailroom

import (
	"testing"
)

func TestLiveSuppressionsRoundTrip(t *testing.T) {
	env := live(t)
	client := env.client()
	address := recipient()
	added, err := client.Suppressions.Add(&AddSuppressionRequest{Email: address, Reason: "asked by phone"})
	if err != nil || added.Id == "" || added.Origin != SuppressionOriginManual || added.Reason != "asked by phone" {
		t.Fatalf("add: %+v (%v)", added, err)
	}
	byId, err := client.Suppressions.Get(added.Id)
	if err != nil || byId.Email != address {
		t.Fatalf("get by id: %+v (%v)", byId, err)
	}
	byEmail, err := client.Suppressions.Get(address)
	if err != nil || byEmail.Id != added.Id {
		t.Fatalf("get by address: %+v (%v)", byEmail, err)
	}
	listed, err := client.Suppressions.List(&ListSuppressionsOptions{Search: address, Origin: SuppressionOriginManual})
	if err != nil || len(listed.Data) != 1 || listed.Data[0].Id != added.Id {
		t.Fatalf("list: %+v (%v)", listed, err)
	}
	removed, err := client.Suppressions.Remove(address)
	if err != nil || !removed.Deleted || removed.Id != added.Id {
		t.Fatalf("remove: %+v (%v)", removed, err)
	}
	_, err = client.Suppressions.Get(address)
	apiError(t, err, NameNotFound, 404)

	first, second := recipient(), recipient()
	batch, err := client.Suppressions.Batch.Add(&BatchAddSuppressionsRequest{Emails: []string{first, second}, Reason: "import"})
	if err != nil || len(batch.Data) != 2 || batch.Data[0].Id == "" {
		t.Fatalf("batch add: %+v (%v)", batch, err)
	}
	unsuppressed := recipient()
	batchRemoved, err := client.Suppressions.Batch.Remove(&BatchRemoveSuppressionsRequest{Emails: []string{first, second, unsuppressed}})
	if err != nil || len(batchRemoved.Data) != 3 || !batchRemoved.Data[0].Deleted || !batchRemoved.Data[1].Deleted || batchRemoved.Data[2].Deleted {
		t.Fatalf("batch remove: %+v (%v)", batchRemoved, err)
	}
}
