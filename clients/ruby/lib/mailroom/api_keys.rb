# frozen_string_literal: true

# API keys (docs/keys-and-limits.md): create (the token is shown once), list, rename, revoke.
module Mailroom
  class ApiKeys < Resource
    # POST /v1/api-keys Types::CreateApiKeyOptions → Types::CreateApiKeyResponse (the token: shown once). daily_quota:
    # live messages per UTC day this key may send (DailyQuotaExceededError past it).
    def create(params)
      http_post("/api-keys", symbolized(params))
    end

    # GET /v1/api-keys. params: limit, after, before, include_revoked.
    def list(params = {})
      http_get("/api-keys", query(params))
    end

    # PATCH /v1/api-keys/:id { name } — Mailroom's extension: rename a key.
    def update(id_or_params, params = {})
      key_id, body = id_and_params(id_or_params, params, :api_key_id, :id)
      http_patch("/api-keys/#{segment(key_id)}", body)
    end

    # DELETE /v1/api-keys/:id — revoke; the key stops working at once.
    def remove(api_key_id)
      http_delete("/api-keys/#{segment(api_key_id)}")
    end
  end
end
