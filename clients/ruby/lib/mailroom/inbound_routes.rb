# frozen_string_literal: true

# Inbound routes (docs/inbound.md#routes, Mailroom's own): ordered rules for received mail — match a recipient (or a
# wildcard) and optionally a header, then store, notify chosen webhooks, forward, reject or drop, with an optional spam
# threshold — and the call that says which route decides for an address. Reached as receiving.routes, beside the
# received mail they act on. Reading needs inbound:read; changing, domains:write.
module Mailroom
  class InboundRoutes < Resource
    # POST /v1/inbound/routes Types::CreateInboundRouteOptions (match: { recipient:, header: { name:, contains: } },
    # action, forward_to, webhook_ids, spam_threshold, position) → Types::InboundRoute.
    def create(params)
      http_post("/inbound/routes", symbolized(params))
    end

    # GET /v1/inbound/routes/:id → Types::InboundRoute.
    def get(route_id)
      http_get("/inbound/routes/#{segment(route_id)}")
    end

    # GET /v1/inbound/routes → { object: "list", has_more:, data: [Types::InboundRoute] }, in the order they are
    # tried. params: limit, after, before.
    def list(params = {})
      http_get("/inbound/routes", query(params))
    end

    # PATCH /v1/inbound/routes/:id Types::UpdateInboundRouteOptions → Types::InboundRoute: change it, or move it
    # (position); spam_threshold: nil clears the threshold.
    def update(id_or_params, params = {})
      route_id, body = id_and_params(id_or_params, params, :route_id, :id)
      http_patch("/inbound/routes/#{segment(route_id)}", body)
    end

    # DELETE /v1/inbound/routes/:id → { object: "inbound_route", id:, deleted: true }.
    def remove(route_id)
      http_delete("/inbound/routes/#{segment(route_id)}")
    end

    # POST /v1/inbound/routes/test { recipient:, headers: } → Types::InboundRouteTest: which route decides for the
    # address (nil: none) and what becomes of its mail; nothing is received or changed.
    def test(params)
      http_post("/inbound/routes/test", symbolized(params))
    end
  end
end
