# frozen_string_literal: true

# Sending domains (DESIGN §5): the DNS records to publish, their verification, tracking and receiving settings.
module Mailroom
  class Domains < Resource
    # POST /v1/domains { name, … } → the domain with its records.
    def create(params)
      http_post("/domains", symbolized(params))
    end

    # GET /v1/domains/:id (an id or the domain name).
    def get(domain_id)
      http_get("/domains/#{segment(domain_id)}")
    end

    # GET /v1/domains. params: limit, after, before.
    def list(params = {})
      http_get("/domains", query(params))
    end

    # PATCH /v1/domains/:id. update(id: id, open_tracking: true) as Resend's SDK, or update(id, params).
    def update(id_or_params, params = {})
      domain_id, body = id_and_params(id_or_params, params, :id, :domain_id)
      http_patch("/domains/#{segment(domain_id)}", body)
    end

    # POST /v1/domains/:id/verify — check the DNS records now.
    def verify(domain_id)
      http_post("/domains/#{segment(domain_id)}/verify")
    end

    # DELETE /v1/domains/:id → { object: "domain", id:, deleted: true }.
    def remove(domain_id)
      http_delete("/domains/#{segment(domain_id)}")
    end
  end
end
