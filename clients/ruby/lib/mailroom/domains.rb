# frozen_string_literal: true

# Sending domains (docs/domains.md): the DNS records to publish, their verification, tracking and receiving settings; and
# (docs/deliverability.md) the tracking host, the TLS policy, an Ed25519 DKIM key, the IP pool direct delivery sends from, and the
# DMARC aggregate reports receivers sent.
# A domain also shows its health: { bounce_rate:, complaint_rate:, window:, recipients:, status:, reason:,
# evaluated_at: }, status "ok", "warning" or "paused".
module Mailroom
  class Domains < Resource
    # POST /v1/domains Types::CreateDomainOptions → Types::Domain, with its records.
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
    # Besides tracking, return_path_subdomain, receiving and providers: tracking_subdomain ("links" adds the CNAME of
    # links.<domain> to the records; once DNS shows it, the domain's links use https://links.<domain>; nil removes
    # it), tls ("opportunistic" or "enforced": direct MX delivery only over STARTTLS with a valid certificate),
    # dkim: { ed25519: true } (an Ed25519 signature beside the RSA one once its record is found; false retires it) and
    # ip_pool (a configured [ip_pools.<name>] direct delivery sends from, else ValidationError; nil for none). What is
    # left out stays.
    def update(id_or_params, params = {})
      domain_id, body = id_and_params(id_or_params, params, :id, :domain_id)
      http_patch("/domains/#{segment(domain_id)}", body)
    end

    # POST /v1/domains/:id/verify — check the DNS records now.
    def verify(domain_id)
      http_post("/domains/#{segment(domain_id)}/verify")
    end

    # DELETE /v1/domains/:id → Types::DomainDeleted.
    def remove(domain_id)
      http_delete("/domains/#{segment(domain_id)}")
    end

    # GET /v1/domains/:id/dmarc — the DMARC aggregate reports receivers sent about the domain, newest first.
    # params: limit, after (a report's id: the reports older than it), before (the reports newer than it). Each is a
    # Types::DmarcReport with its first 20 rows (Types::DmarcRow), heaviest source first; the rest through
    # dmarc_report_rows. Empty until the domain is verified.
    def dmarc_reports(domain_id, params = {})
      http_get("/domains/#{segment(domain_id)}/dmarc", query(params))
    end

    # GET /v1/domains/:id/dmarc/:report_id/rows — one report's rows, page by page. params: limit, after or before (a
    # row's id). → { object: "list", has_more:, data: [Types::DmarcReportRow] }.
    def dmarc_report_rows(domain_id, report_id, params = {})
      http_get("/domains/#{segment(domain_id)}/dmarc/#{segment(report_id)}/rows", query(params))
    end

    # GET /v1/domains/:id/dmarc/summary — who sends as the domain: the reports of the last days (1–90, the server's
    # default 7) summed per source address. → Types::DmarcSummary, a Types::DmarcSource per address.
    def dmarc_summary(domain_id, days: nil)
      http_get("/domains/#{segment(domain_id)}/dmarc/summary", { days: days })
    end
  end
end
