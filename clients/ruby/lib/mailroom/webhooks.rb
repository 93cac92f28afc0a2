# frozen_string_literal: true

# Webhook endpoints (docs/events-and-webhooks.md): their management, the events sent to them with each attempt, replays, test
# events, signing-secret rotation, and (Webhooks.verify) the check of a request that claims to come from Mailroom.
module Mailroom
  class Webhooks < Resource
    # The check a receiving application runs on each webhook request; see WebhookVerifier.verify.
    def self.verify(**args)
      WebhookVerifier.verify(**args)
    end

    # POST /v1/webhooks Types::CreateWebhookOptions → Types::WebhookWithSecret.
    def create(params)
      http_post("/webhooks", symbolized(params))
    end

    # GET /v1/webhooks/:id.
    def get(webhook_id)
      http_get("/webhooks/#{segment(webhook_id)}")
    end

    # GET /v1/webhooks. params: limit, after, before.
    def list(params = {})
      http_get("/webhooks", query(params))
    end

    # PATCH /v1/webhooks/:id { endpoint?, events?, description?, status? }.
    # update(webhook_id: id, …) as Resend's SDK, or update(id, params).
    def update(id_or_params, params = {})
      webhook_id, body = id_and_params(id_or_params, params, :webhook_id, :id)
      http_patch("/webhooks/#{segment(webhook_id)}", body)
    end

    # DELETE /v1/webhooks/:id → { object: "webhook", id:, deleted: true }.
    def remove(webhook_id)
      http_delete("/webhooks/#{segment(webhook_id)}")
    end

    # POST /v1/webhooks/:id/signing-secret/rotate → the new signing_secret; the old one keeps signing for 24 h.
    def rotate_signing_secret(webhook_id)
      http_post("/webhooks/#{segment(webhook_id)}/signing-secret/rotate")
    end

    # GET /v1/webhooks/:id/events. params: limit, after, before, status (pending|attempting|success|failed).
    def list_events(webhook_id, params = {})
      http_get("/webhooks/#{segment(webhook_id)}/events", query(params))
    end

    # GET /v1/webhooks/:id/events/:event_id → the event with its payload.
    def get_event(webhook_id, event_id)
      http_get("/webhooks/#{segment(webhook_id)}/events/#{segment(event_id)}")
    end

    # GET /v1/webhooks/:id/events/:event_id/attempts. params: limit, after, before.
    def list_event_attempts(webhook_id, event_id, params = {})
      http_get("/webhooks/#{segment(webhook_id)}/events/#{segment(event_id)}/attempts", query(params))
    end

    # POST /v1/webhooks/:id/events/:event_id/replay — send the event again, with the same webhook-id.
    def replay_event(webhook_id, event_id)
      http_post("/webhooks/#{segment(webhook_id)}/events/#{segment(event_id)}/replay")
    end

    # POST /v1/webhooks/:id/replay — send every failed event of the endpoint again.
    def replay_failed(webhook_id)
      http_post("/webhooks/#{segment(webhook_id)}/replay")
    end

    # POST /v1/webhooks/:id/test { type? } — send a sample event (email.sent unless type says otherwise).
    def test(webhook_id, params = {})
      http_post("/webhooks/#{segment(webhook_id)}/test", symbolized(params))
    end

    # Same as Mailroom::Webhooks.verify, for code that holds a client.
    def verify(**args)
      WebhookVerifier.verify(**args)
    end
  end
end
