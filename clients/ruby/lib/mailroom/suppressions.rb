# frozen_string_literal: true

# The organisation's suppression list (docs/delivery.md#suppressions): addresses no message is delivered to, one by one or in batches.
module Mailroom
  class Suppressions < Resource
    attr_reader :batch

    def initialize(transport)
      super
      @batch = SuppressionsBatch.new(transport)
    end

    # POST /v1/suppressions Types::AddSuppressionOptions → Types::Suppression (an existing one is returned as it is).
    def add(params)
      http_post("/suppressions", symbolized(params))
    end
    alias create add

    # GET /v1/suppressions/:id_or_email → Types::Suppression.
    def get(id_or_email)
      http_get("/suppressions/#{segment(id_or_email)}")
    end

    # GET /v1/suppressions → { object: "list", has_more:, data: [Types::Suppression] }. params: limit, after,
    # before, origin, search.
    def list(params = {})
      http_get("/suppressions", query(params))
    end

    # DELETE /v1/suppressions/:id_or_email → { object: "suppression", id:, deleted: true }.
    def remove(id_or_email)
      http_delete("/suppressions/#{segment(id_or_email)}")
    end
  end

  # POST /v1/suppressions/batch/add and /batch/remove.
  class SuppressionsBatch < Resource
    # add(emails: [...], reason: "…") (Types::BatchAddSuppressionsOptions) → { data: [Types::Suppression] }.
    def add(params)
      http_post("/suppressions/batch/add", symbolized(params))
    end

    # remove(emails: [...]) or remove(ids: [...]) — exactly one of them → { data: [Types::RemovedSuppression] }.
    def remove(params)
      body = symbolized(params)
      if body.key?(:emails) == body.key?(:ids)
        raise ArgumentError, "give either emails or ids"
      end

      http_post("/suppressions/batch/remove", body)
    end
  end
end
