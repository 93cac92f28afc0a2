# frozen_string_literal: true

# Sending and reading sent mail (docs/sending.md): send, look up, list, reschedule, cancel, the stored MIME and the
# attachments of a sent email. Received mail hangs off `emails.receiving`, as in Resend's SDK.
module Mailroom
  class Emails < Resource
    attr_reader :attachments, :receiving

    def initialize(transport)
      super
      @attachments = EmailAttachments.new(transport)
      @receiving = Receiving.new(transport)
    end

    # POST /v1/emails Types::CreateEmailOptions → Types::CreateEmailResponse. options: { idempotency_key: "…" }.
    # send({ from:, to:, … }) as Resend's SDK, or send(from:, to:, …) with the fields as keywords.
    # Overrides Object#send on purpose, as Resend's SDK does; use __send__ for dynamic dispatch.
    def send(params = nil, options: {}, **fields)
      body = symbolized(params || {}).merge(fields)
      raise ArgumentError, "the email's fields are required" if body.empty?

      http_post("/emails", body, idempotency_key: Idempotency.key_for(@transport, options))
    end

    # GET /v1/emails/:id → Types::Email: the email with its recipients and event history; content_removed_at: when
    # retention removed its content (nil while it is kept).
    def get(email_id)
      http_get("/emails/#{segment(email_id)}")
    end

    # GET /v1/emails. params: limit, after, before, status, to, from, tag ("name" or "name:value").
    def list(params = {})
      http_get("/emails", query(params))
    end

    # GET /v1/emails/metrics → Types::EmailMetrics (docs/logs-and-mcp.md#usage-and-metrics): totals over a range and,
    # with dimensions: ["period"], one row per granularity ("hourly", "daily", "weekly", "monthly"). params:
    # start_date, end_date (ISO dates or date-times), granularity, metrics and dimensions (Arrays or comma-separated).
    # Rates are fractions from 0 to 1.
    def metrics(params = {})
      page = query(params).transform_values { |v| v.is_a?(Array) ? v.join(",") : v }
      http_get("/emails/metrics", page)
    end

    # PATCH /v1/emails/:id { scheduled_at } — reschedule a scheduled email.
    # update(email_id: id, scheduled_at: t) as Resend's SDK, or update(id, scheduled_at: t).
    def update(id_or_params, params = {})
      email_id, body = id_and_params(id_or_params, params, :email_id, :id)
      http_patch("/emails/#{segment(email_id)}", body)
    end

    # POST /v1/emails/:id/cancel — cancel a scheduled email, or, once it is on its way, every recipient of it that
    # still waits (queued, deferred, held); one being attempted now is left to its attempt. ConflictError when
    # nothing waits. One recipient at a time: deliveries.cancel.
    def cancel(email_id)
      http_post("/emails/#{segment(email_id)}/cancel")
    end

    # GET /v1/emails/:id/raw → the stored message/rfc822 as a String; GoneError once retention removed it.
    def raw(email_id)
      http_get("/emails/#{segment(email_id)}/raw")
    end
  end

  # GET /v1/emails/:email_id/attachments[/:id] — each with a signed download_url; GoneError once retention removed
  # the email's content.
  class EmailAttachments < Resource
    # list(email_id: id, limit: …) as Resend's SDK, or list(id, limit: …).
    def list(id_or_params, params = {})
      email_id, page = id_and_params(id_or_params, params, :email_id)
      http_get("/emails/#{segment(email_id)}/attachments", page)
    end

    # get(email_id: id, id: attachment_id) as Resend's SDK, or get(email_id, attachment_id).
    def get(email_id_or_params, attachment_id = nil)
      email_id, attachment_id = attachment_ids(email_id_or_params, attachment_id)
      http_get("/emails/#{segment(email_id)}/attachments/#{segment(attachment_id)}")
    end
  end
end
