# frozen_string_literal: true

# The server's IP pools for direct delivery (docs/deliverability.md, scope domains:read): each [ip_pools.<name>], which a domain
# names with domains.update(id, ip_pool: name), with its addresses' warm-up and today's traffic.
module Mailroom
  class IpPools < Resource
    # GET /v1/ip-pools → { object: "list", has_more:, data: [Types::IpPool] }: every configured pool, each address
    # (Types::IpPoolAddress) with its warm-up day (nil before it sent, or once warm-up is over) and today's cap per
    # destination provider (nil: uncapped), today's messages per provider (today: { gmail: 12, … }), and the
    # providers whose rate is halved for an hour after throttling (Types::IpPoolBackOff). Empty when the server
    # configures none.
    def list
      http_get("/ip-pools")
    end
  end
end
