# frozen_string_literal: true

# The request log (docs/logs-and-mcp.md#the-request-log, Resend's logs) and usage
# (docs/logs-and-mcp.md#usage-and-metrics, Resend's usage.get). Log entries are written shortly after the answer, not
# with it.
module Mailroom
  class Logs < Resource
    # GET /v1/logs → { object: "list", has_more:, data: [Types::LogListItem] }, newest first, without bodies.
    # params: limit, after, before, status (an HTTP status), method, api_key_id, endpoint (a path, or its start).
    def list(params = {})
      http_get("/logs", query(params))
    end

    # GET /v1/logs/:id → Types::Log: the request with its request_body and response_body, secrets "[redacted]".
    def get(log_id)
      http_get("/logs/#{segment(log_id)}")
    end
  end

  class Usage < Resource
    # GET /v1/usage → Types::Usage: emails today and this month against their limits, received mail, domains,
    # contacts, segments, broadcasts and the rate limit (scope organization:read; live keys only).
    def get
      http_get("/usage")
    end
  end
end
