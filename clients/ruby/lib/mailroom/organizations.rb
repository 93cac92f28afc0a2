# frozen_string_literal: true

# The organisations the caller acts in (docs/teams.md): for an API key, its own, with the organization:read scope
# (full_access includes it). Creating an organisation is for instance admins signed in to the admin UI (or
# `mailroom org create` at the command line), not for API keys, so there is no create here.
module Mailroom
  class Organizations < Resource
    # GET /v1/organizations → { object: "list", has_more:, data: [Types::OrganizationMembership] }: each organisation
    # the caller acts in, with the caller's role there (Types::Role).
    def list
      http_get("/organizations")
    end
  end
end
