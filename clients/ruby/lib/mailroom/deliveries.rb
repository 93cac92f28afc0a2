# frozen_string_literal: true

# The delivery queue (docs/operations.md): each recipient still waiting (queued, deferred, held, or sending: being
# attempted now) with its attempts, next attempt and last reply, counts of what waits, and the operator's actions
# — retry now, cancel, release — on one delivery or, through `deliveries.bulk`, on every delivery of a filter.
# Reading needs the deliveries:read scope, the actions deliveries:write (full_access includes both).
module Mailroom
  class Deliveries < Resource
    attr_reader :bulk

    def initialize(transport)
      super
      @bulk = DeliveriesBulk.new(transport)
    end

    # GET /v1/deliveries, oldest first. params: limit, after, before, status (queued|deferred|held|sending),
    # domain (the recipient's), provider (of the last attempt), email_id. Each delivery: { object: "delivery", id:,
    # email_id:, recipient:, status:, provider:, attempts:, next_attempt_at:, last_response:, created_at:,
    # updated_at: }.
    def list(params = {})
      http_get("/deliveries", query(params))
    end

    # GET /v1/deliveries/summary → Types::QueueSummary: by status, by destination domain (the 20 with the most
    # waiting) and by provider (provider nil: not attempted yet).
    def summary
      http_get("/deliveries/summary")
    end

    # POST /v1/deliveries/:id/retry — a deferred delivery is due at once (its attempts so far still count).
    # Returns the delivery; ConflictError when it is not deferred or is being attempted now.
    def retry(delivery_id)
      http_post("/deliveries/#{segment(delivery_id)}/retry")
    end

    # POST /v1/deliveries/:id/cancel — a queued, deferred or held delivery is stopped (status "canceled").
    # Returns the delivery; ConflictError when it no longer waits or is being attempted now.
    def cancel(delivery_id)
      http_post("/deliveries/#{segment(delivery_id)}/cancel")
    end

    # POST /v1/deliveries/:id/release — a held delivery goes now, whatever pause held it.
    # Returns the delivery; ConflictError when it is not held.
    def release(delivery_id)
      http_post("/deliveries/#{segment(delivery_id)}/release")
    end
  end

  # POST /v1/deliveries/retry, /cancel and /release — the action on every delivery of a filter
  # (Types::BulkDeliveriesOptions) it applies to → Types::BulkDeliveriesResponse. matched counts those being
  # attempted now too, changed those the action moved. The server requires at least one filter
  # (ValidationError otherwise).
  class DeliveriesBulk < Resource
    # retry(status: "deferred", domain: "example.org") — every deferred delivery of the filter is due at once.
    def retry(filter)
      http_post("/deliveries/retry", symbolized(filter))
    end

    # cancel(email_id: id) — every queued, deferred or held delivery of the filter is stopped.
    def cancel(filter)
      http_post("/deliveries/cancel", symbolized(filter))
    end

    # release(provider: "ses") — every held delivery of the filter goes now.
    def release(filter)
      http_post("/deliveries/release", symbolized(filter))
    end
  end
end
