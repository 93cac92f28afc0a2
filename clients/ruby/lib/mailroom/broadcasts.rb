# frozen_string_literal: true

# Broadcasts (docs/broadcasts.md, Resend's broadcasts): one message per contact of a segment, personalised
# ({{{FIRST_NAME|fallback}}}, {{{RESEND_UNSUBSCRIBE_URL}}}), sent in the broadcast lane so transactional mail goes
# first. Drafts are created, changed and deleted; send sends one now or at a time, cancel stops it; a broadcast's
# recipients by event and its clicked links follow it. Scopes contacts:read and contacts:write; sending, emails:send.
module Mailroom
  class Broadcasts < Resource
    # POST /v1/broadcasts Types::CreateBroadcastOptions (segment_id or audience_id, from, subject, html or text or
    # template, topic_id, send: true to send now or at scheduled_at) → { id: }. A draft unless send: true.
    def create(params)
      http_post("/broadcasts", symbolized(params))
    end

    # GET /v1/broadcasts/:id → Types::Broadcast with its counts per recipient status.
    def get(broadcast_id)
      http_get("/broadcasts/#{segment(broadcast_id)}")
    end

    # GET /v1/broadcasts → { object: "list", has_more:, data: [Types::BroadcastSummary] }. params: limit, after, before.
    def list(params = {})
      http_get("/broadcasts", query(params))
    end

    # PATCH /v1/broadcasts/:id Types::UpdateBroadcastOptions → { id: } — drafts only (ConflictError otherwise).
    # update(id, params), or Resend's update(broadcast_id:, **params).
    def update(id_or_params, params = {})
      broadcast_id, body = id_and_params(id_or_params, params, :broadcast_id, :id)
      http_patch("/broadcasts/#{segment(broadcast_id)}", body)
    end

    # DELETE /v1/broadcasts/:id → { object: "broadcast", id:, deleted: true } — drafts only.
    def remove(broadcast_id)
      http_delete("/broadcasts/#{segment(broadcast_id)}")
    end

    # POST /v1/broadcasts/:id/send { scheduled_at: } (ISO 8601, or e.g. "in 2 hours"; absent: now) → { id: }.
    # send(id, scheduled_at: …), or Resend's send(broadcast_id:, scheduled_at: …). Overrides Object#send on purpose,
    # as Resend's SDK does; use __send__ for dynamic dispatch.
    def send(id_or_params, params = {})
      broadcast_id, body = id_and_params(id_or_params, params, :broadcast_id, :id)
      http_post("/broadcasts/#{segment(broadcast_id)}/send", body)
    end

    # POST /v1/broadcasts/:id/cancel → { object: "broadcast", id: }: a scheduled broadcast returns to draft, one being
    # sent stops as canceled (its recipients still waiting are canceled).
    def cancel(broadcast_id)
      http_post("/broadcasts/#{segment(broadcast_id)}/cancel")
    end

    # POST /v1/broadcasts/:id/duplicate → { object: "broadcast", id: } of the new draft.
    def duplicate(broadcast_id)
      http_post("/broadcasts/#{segment(broadcast_id)}/duplicate")
    end

    # GET /v1/broadcasts/:id/recipients → { object: "list", has_more:, data: [Types::BroadcastRecipient] }. params:
    # type (required: sent, delivered, opened, clicked, bounced, complained, unsubscribed, suppressed), email,
    # bounce_type, limit, after, before.
    def recipients(broadcast_id, params = {})
      http_get("/broadcasts/#{segment(broadcast_id)}/recipients", query(params))
    end

    # GET /v1/broadcasts/:id/clicked-links → { object: "list", has_more:, data: [Types::BroadcastClickedLink] }, most
    # clicked first.
    def clicked_links(broadcast_id, params = {})
      http_get("/broadcasts/#{segment(broadcast_id)}/clicked-links", query(params))
    end
  end
end
