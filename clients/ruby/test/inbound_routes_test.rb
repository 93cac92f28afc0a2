# frozen_string_literal: true

# Inbound routes against the real server: a route made, found by the address test (its header match included),
# changed, moved, listed and removed, after which the address falls back to storing; a malformed route refused by name.
require "minitest/autorun"
require "test_helper"

class InboundRoutesTest < Minitest::Test
  include MailroomTestHelper

  def test_a_route_through_its_life
    routes = client.receiving.routes
    assert_same routes, client.emails.receiving.routes.then { routes }
    address = "#{unique('ruby-route')}@example.com"
    before = routes.test(recipient: address)
    assert_equal ["inbound_route_test", true, nil, "store"], before.values_at(:object, :receiving, :route, :action)

    route = routes.create(match: { recipient: address, header: { name: "X-Team", contains: "billing" } },
                          action: "reject", spam_threshold: 7.5)
    assert_equal ["inbound_route", "reject", 7.5], route.values_at(:object, :action, :spam_threshold)
    # The header decides: without it the route does not match.
    assert_nil routes.test(recipient: address)[:route]
    tested = routes.test(recipient: address, headers: { "X-Team" => "Billing EU" })
    assert_equal [route[:id], "reject"], [tested[:route][:id], tested[:action]]

    updated = routes.update(route[:id], match: { header: nil }, action: "drop", spam_threshold: nil, position: 1)
    assert_equal ["drop", nil, 1, nil], [updated[:action], updated[:spam_threshold], updated[:position], updated[:match][:header]]
    assert_equal "drop", routes.get(route[:id])[:action]
    assert_equal route[:id], routes.list[:data].first[:id]
    assert_equal "drop", routes.test(recipient: address)[:action]
    assert_equal "forward", routes.update(id: route[:id], action: "forward", forward_to: ["desk@elsewhere.test"])[:action]

    error = assert_raises(Mailroom::ValidationError) { routes.create(action: "forward") }
    refute_empty error.details

    assert_equal({ object: "inbound_route", id: route[:id], deleted: true }, routes.remove(route[:id]))
    assert_raises(Mailroom::NotFoundError) { routes.get(route[:id]) }
    assert_equal [nil, "store"], routes.test(recipient: address).values_at(:route, :action)
    route = nil
  ensure
    routes&.remove(route[:id]) if route
  end
end
