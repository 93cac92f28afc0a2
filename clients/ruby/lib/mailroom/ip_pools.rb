# frozen_string_literal: true

# The server's IP pools for direct delivery (DESIGN §14, scope domains:read): each [ip_pools.<name>], which a domain
# names with domains.update(id, ip_pool: name), with its addresses' warm-up and today's traffic.
module Mailroom
  class IpPools < Resource
    # GET /v1/ip-pools → { object: "list", data: [{ name:, warmup: ("30d"), addresses: [{ address:, ehlo_name:,
    # warmup_day:, daily_cap:, today: { gmail: 12, … }, backed_off: [{ provider:, messages_per_minute:, until: }] }] }] }:
    # every configured pool, each address's warm-up day (nil before it sent, or once warm-up is over) and today's cap
    # per destination provider (nil: uncapped), today's messages per provider, and the providers whose rate is halved
    # for an hour after throttling. Empty when the server configures none.
    def list
      http_get("/ip-pools")
    end
  end
end
