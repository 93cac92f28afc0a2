# frozen_string_literal: true

# Sending pauses (docs/operations.md): an operator pauses the organisation's sending, one of its sending domains or a
# provider. Mail is still accepted; its recipients wait as `held` (deliveries.list(status: "held")) and are never
# attempted while a pause applies; on resume they go back to the queue, oldest first. Reading needs the
# deliveries:read scope, pausing and resuming deliveries:write (full_access includes both).
module Mailroom
  class Sending < Resource
    # GET /v1/sending → Types::SendingState: the pauses that apply (Types::SendingPause), oldest first. name is the
    # domain or provider (nil for the organisation); paused_by the id of the key that paused, or "operator" for the
    # command line.
    def get
      http_get("/sending")
    end

    # GET /v1/sending/health (scope domains:read) → Types::SendingHealthOverview: the guardrails' bounce and complaint
    # rates over their window, for the organisation and each sending domain (Types::DomainHealthEntry), and the DNS
    # blocklists' last answers about the sending addresses (Types::BlocklistListing). Each health is a
    # Types::DomainHealth (status "ok", "warning" or "paused"; reason nil when ok). A guardrail pause is listed by
    # get, and a person resumes it.
    def health
      http_get("/sending/health")
    end

    # POST /v1/sending/pause — params: scope ("organization" | "domain" | "provider"), name (the domain or provider;
    # none for the organisation), reason (optional, for the record). Returns the state, as get.
    # Pausing what is paused already keeps the first pause (its reason and time). NotFoundError for a domain that is
    # not the organisation's; ValidationError for a provider that is not configured or an organisation pause that
    # names something.
    def pause(params)
      http_post("/sending/pause", symbolized(params))
    end

    # POST /v1/sending/resume — params: scope, name, as for pause. Returns the state plus released: how many held
    # recipients went back to the queue (those no remaining pause holds). NotFoundError when it is not paused.
    def resume(params)
      http_post("/sending/resume", symbolized(params))
    end
  end
end
