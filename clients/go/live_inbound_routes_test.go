// Live tests of inbound routes: a route made, found by the address test, changed, moved, listed and removed, after
// which the address falls back to storing; and a malformed route refused by name.
package mailroom

import "testing"

func TestLiveInboundRoutes(t *testing.T) {
	env := live(t)
	client := env.client()
	routes := client.Emails.Receiving.Routes
	address := unique("go-route") + "@example.com"

	before, err := routes.Test(&TestInboundRouteRequest{Recipient: address})
	if err != nil || before.Object != "inbound_route_test" || !before.Receiving || before.Route != nil || before.Action != InboundActionStore {
		t.Fatalf("test before any route: %+v (%v)", before, err)
	}

	threshold := 7.5
	created, err := routes.Create(&CreateInboundRouteRequest{
		Match:         &CreateInboundRouteOptionsMatch{Recipient: address, Header: &InboundRouteHeaderMatch{Name: "X-Team", Contains: "billing"}},
		Action:        InboundActionReject,
		SpamThreshold: &threshold,
	})
	if err != nil || created.Object != "inbound_route" || created.Action != InboundActionReject || created.Position < 1 || *created.SpamThreshold != 7.5 {
		t.Fatalf("create: %+v (%v)", created, err)
	}
	t.Cleanup(func() { _, _ = routes.Remove(created.Id) })

	// The header decides: without it the route does not match.
	if tested, err := routes.Test(&TestInboundRouteRequest{Recipient: address}); err != nil || tested.Route != nil {
		t.Fatalf("test without the header: %+v (%v)", tested, err)
	}
	tested, err := routes.Test(&TestInboundRouteRequest{Recipient: address, Headers: map[string]string{"X-Team": "Billing EU"}})
	if err != nil || tested.Route == nil || tested.Route.Id != created.Id || tested.Action != InboundActionReject {
		t.Fatalf("test with the header: %+v (%v)", tested, err)
	}

	updated, err := routes.Update(created.Id, &UpdateInboundRouteRequest{
		Match:         &UpdateInboundRouteOptionsMatch{Header: Null[InboundRouteHeaderMatch]()},
		Action:        InboundActionDrop,
		SpamThreshold: Null[float64](),
		Position:      1,
	})
	if err != nil || updated.Action != InboundActionDrop || updated.SpamThreshold != nil || updated.Position != 1 || updated.Match.Header != nil {
		t.Fatalf("update: %+v (%v)", updated, err)
	}
	if got, err := routes.Get(created.Id); err != nil || got.Action != InboundActionDrop {
		t.Fatalf("get: %+v (%v)", got, err)
	}
	listed, err := routes.List(nil)
	if err != nil || listed.Object != "list" || len(listed.Data) == 0 || listed.Data[0].Id != created.Id {
		t.Fatalf("list (the moved route first): %+v (%v)", listed, err)
	}
	if tested, err := routes.Test(&TestInboundRouteRequest{Recipient: address}); err != nil || tested.Action != InboundActionDrop {
		t.Fatalf("test after the update: %+v (%v)", tested, err)
	}

	_, err = routes.Create(&CreateInboundRouteRequest{Action: InboundActionForward})
	invalid := apiError(t, err, NameValidationError, 400)
	if len(invalid.Details) == 0 {
		t.Fatalf("a forward without forward_to names its problem: %+v", invalid)
	}

	removed, err := routes.Remove(created.Id)
	if err != nil || !removed.Deleted || removed.Object != "inbound_route" {
		t.Fatalf("remove: %+v (%v)", removed, err)
	}
	_, err = routes.Get(created.Id)
	apiError(t, err, NameNotFound, 404)
	if after, err := routes.Test(&TestInboundRouteRequest{Recipient: address}); err != nil || after.Route != nil || after.Action != InboundActionStore {
		t.Fatalf("test after the removal: %+v (%v)", after, err)
	}
}
