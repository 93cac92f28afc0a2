# frozen_string_literal: true

# The organisation's settings (docs/operations.md): its name, request limit, daily quota of live messages and retention,
# read with today's usage, what it stores and whether its sending is paused. Reading needs the organization:read
# scope, changing organization:write (full_access includes both; a test key or a sending_access key has neither).
module Mailroom
  class Organization < Resource
    # GET /v1/organization → Types::Organization. Each setting shows the value in force (its default when unset);
    # daily_quota nil: no quota; storage nil until retention first counts.
    def get
      http_get("/organization")
    end

    # PATCH /v1/organization — params: any of name, rate_limit, daily_quota, retention ({ content_days:,
    # metadata_days: }). nil returns a setting to its default (daily_quota: no quota); what is left out stays.
    # Returns the organisation after the change. ValidationError for an unknown field or a bad value.
    def update(params)
      http_patch("/organization", symbolized(params))
    end
  end
end
