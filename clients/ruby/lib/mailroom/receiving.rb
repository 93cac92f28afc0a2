# frozen_string_literal: true

# Received mail (docs/inbound.md, Resend's receiving API): the inbound messages of domains with receiving enabled,
# their attachments and their raw MIME.
module Mailroom
  class Receiving < Resource
    attr_reader :attachments, :routes

    def initialize(transport)
      super
      @attachments = ReceivingAttachments.new(transport)
      # What becomes of received mail (inbound_routes.rb).
      @routes = InboundRoutes.new(transport)
    end

    # GET /v1/emails/receiving. params: limit, after, before.
    def list(params = {})
      http_get("/emails/receiving", query(params))
    end

    # GET /v1/emails/receiving/:id → Types::ReceivedEmail: the parsed message with its authentication results.
    def get(email_id)
      http_get("/emails/receiving/#{segment(email_id)}")
    end

    # GET /v1/emails/receiving/:id/raw → the message as received, a String.
    def raw(email_id)
      http_get("/emails/receiving/#{segment(email_id)}/raw")
    end
  end

  # GET /v1/emails/receiving/:email_id/attachments[/:id].
  class ReceivingAttachments < Resource
    def list(id_or_params, params = {})
      email_id, page = id_and_params(id_or_params, params, :email_id)
      http_get("/emails/receiving/#{segment(email_id)}/attachments", page)
    end

    def get(email_id_or_params, attachment_id = nil)
      email_id, attachment_id = attachment_ids(email_id_or_params, attachment_id)
      http_get("/emails/receiving/#{segment(email_id)}/attachments/#{segment(attachment_id)}")
    end
  end
end
