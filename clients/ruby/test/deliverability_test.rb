# frozen_string_literal: true

# Deliverability (docs/deliverability.md) against the real server: a domain's tracking host (its CNAME among the records), TLS
# policy and Ed25519 DKIM key set, kept across other changes and undone; the sending health listing it ok; the DMARC
# reports and summary of the verified sending domain, empty since no report has arrived; the IP pools, none of which
# the server configures, so a domain can name none; what is refused (days out of range, a domain not the
# organisation's, an unknown pool, a key without domains:read); and, on a local server, the paths and the nulls of
# the bodies.
#
# The domain changed here is one of this test's own: example.com, which every suite sends from, keeps its settings.
require "minitest/autorun"
require "test_helper"

class DeliverabilityTest < Minitest::Test
  include MailroomTestHelper

  SENDING_DOMAIN = "example.com"
  DEFAULTS = { tracking_subdomain: nil, tls: "opportunistic", dkim: { ed25519: false } }.freeze

  def records_of(domain, kind)
    domain[:records].select { |r| r[:record] == kind }
  end

  def test_tracking_host_tls_policy_and_ed25519_key
    mailroom = client
    name = "#{unique('ruby-dlv')}.example.net"
    created = mailroom.domains.create(name: name)
    begin
      assert_equal DEFAULTS, created.slice(:tracking_subdomain, :tls, :dkim)
      assert_nil created.fetch(:ip_pool)
      assert_equal({ status: "ok", reason: nil }, created[:health].slice(:status, :reason))
      assert_kind_of String, created[:health][:window]
      assert_empty records_of(created, "Tracking")
      rsa_keys = records_of(created, "DKIM").size

      updated = mailroom.domains.update(created[:id], tracking_subdomain: "links", tls: "enforced")
      assert_equal({ tracking_subdomain: "links", tls: "enforced" }, updated.slice(:tracking_subdomain, :tls))
      tracking = records_of(updated, "Tracking")
      assert_equal 1, tracking.size, updated[:records].inspect
      assert_equal({ type: "CNAME", name: "links.#{name}" }, tracking[0].slice(:type, :name))
      refute_empty tracking[0][:value].to_s

      # What a call leaves out stays: the tracking host and the TLS policy survive the key's change.
      signed = mailroom.domains.update(id: created[:id], dkim: { ed25519: true })
      assert_equal({ tracking_subdomain: "links", tls: "enforced", dkim: { ed25519: true } },
                   signed.slice(:tracking_subdomain, :tls, :dkim))
      assert_equal rsa_keys + 1, records_of(signed, "DKIM").size
      assert_equal true, mailroom.domains.get(name)[:dkim][:ed25519]

      overview = mailroom.sending.health
      assert_equal "sending_health", overview[:object]
      assert_includes %w[ok warning paused], overview[:health][:status]
      ours = overview[:domains].find { |d| d[:id] == created[:id] }
      refute_nil ours, overview[:domains].inspect
      assert_equal [name, "ok"], [ours[:name], ours[:health][:status]]
      assert_equal "ok", overview[:domains].find { |d| d[:name] == SENDING_DOMAIN }&.dig(:health, :status)

      # String keys and nil work as symbols do: the tracking host removed, the rest back to the defaults.
      undone = mailroom.domains.update(created[:id], "tracking_subdomain" => nil, "tls" => "opportunistic",
                                                     "dkim" => { ed25519: false })
      assert_equal DEFAULTS, undone.slice(:tracking_subdomain, :tls, :dkim)
      assert_empty records_of(undone, "Tracking")
    ensure
      mailroom.domains.remove(created[:id])
    end
  end

  def test_ip_pools_none_configured_so_a_domain_names_none
    mailroom = client
    assert_equal({ object: "list", has_more: false, data: [] }, mailroom.ip_pools.list)
    name = "#{unique('ruby-pool')}.example.net"
    created = mailroom.domains.create(name: name)
    begin
      error = assert_raises(Mailroom::ValidationError) { mailroom.domains.update(created[:id], ip_pool: "nowhere") }
      assert_equal ["ip_pool"], error.details.map { |d| d[:path] }
      cleared = mailroom.domains.update(id: created[:id], ip_pool: nil, tls: "enforced")
      assert_equal({ ip_pool: nil, tls: "enforced" }, cleared.slice(:ip_pool, :tls))
      assert_nil mailroom.domains.get(name).fetch(:ip_pool)
    ensure
      mailroom.domains.remove(created[:id])
    end
    sending = client(api_key: env("MAILROOM_SENDING_KEY"))
    assert_raises(Mailroom::InsufficientScopeError) { sending.ip_pools.list }
  end

  def test_dmarc_reports_and_summary_of_the_verified_sending_domain
    mailroom = client
    # No report has arrived for it: none is listed, and the summary is empty.
    assert_equal({ object: "dmarc_summary", domain: SENDING_DOMAIN, days: 7, reports: 0, data: [] },
                 mailroom.domains.dmarc_summary(SENDING_DOMAIN, days: 7))
    assert_equal({ object: "list", has_more: false, data: [] },
                 mailroom.domains.dmarc_reports(SENDING_DOMAIN, limit: 10))
    assert_equal 7, mailroom.domains.dmarc_summary(SENDING_DOMAIN)[:days], "seven days unless asked"

    error = assert_raises(Mailroom::ValidationError) { mailroom.domains.dmarc_summary(SENDING_DOMAIN, days: 91) }
    assert_equal ["days"], error.details.map { |d| d[:path] }
    assert_raises(Mailroom::NotFoundError) { mailroom.domains.dmarc_reports("#{unique('nowhere')}.example.org") }
    assert_raises(ArgumentError) { mailroom.domains.dmarc_summary("") }

    sending = client(api_key: env("MAILROOM_SENDING_KEY"))
    assert_raises(Mailroom::InsufficientScopeError) { sending.sending.health }
    assert_raises(Mailroom::InsufficientScopeError) { sending.domains.dmarc_summary(SENDING_DOMAIN) }
  end

  def test_paths_and_null_bodies
    server = TinyHttpServer.scripted([200, {}, '{"object":"list","has_more":false,"data":[]}'])
    mailroom = Mailroom::Client.new(api_key: "mr_live_local", base_url: server.url)
    mailroom.domains.update("example.com", tracking_subdomain: "links", tls: "enforced")
    mailroom.domains.update(id: "d/1", tracking_subdomain: nil, dkim: { ed25519: true })
    mailroom.domains.create(name: "example.org", tls: "opportunistic", dkim: { ed25519: false })
    mailroom.sending.health
    mailroom.domains.dmarc_reports("example.com")
    mailroom.domains.dmarc_reports("d/1", "limit" => 5, before: "r1")
    mailroom.domains.dmarc_reports("d/1", after: "r2")
    mailroom.domains.dmarc_report_rows("d/1", "r/2", limit: 100, after: "w1")
    mailroom.domains.dmarc_summary("example.com")
    mailroom.domains.dmarc_summary("d/1", days: 30)
    # An empty id would address another route: refused before any request.
    assert_raises(ArgumentError) { mailroom.domains.dmarc_reports("") }
    assert_raises(ArgumentError) { mailroom.domains.dmarc_summary(nil, days: 7) }
    assert_raises(ArgumentError) { mailroom.domains.dmarc_report_rows("d/1", "") }

    requests = server.requests
    assert_equal [
      %w[PATCH /v1/domains/example.com],
      %w[PATCH /v1/domains/d%2F1],
      %w[POST /v1/domains],
      %w[GET /v1/sending/health],
      %w[GET /v1/domains/example.com/dmarc],
      %w[GET /v1/domains/d%2F1/dmarc?limit=5&before=r1],
      %w[GET /v1/domains/d%2F1/dmarc?after=r2],
      %w[GET /v1/domains/d%2F1/dmarc/r%2F2/rows?limit=100&after=w1],
      %w[GET /v1/domains/example.com/dmarc/summary],
      %w[GET /v1/domains/d%2F1/dmarc/summary?days=30]
    ], requests.map { |r| [r.method, r.path] }
    assert_equal ['{"tracking_subdomain":"links","tls":"enforced"}',
                  '{"tracking_subdomain":null,"dkim":{"ed25519":true}}',
                  '{"name":"example.org","tls":"opportunistic","dkim":{"ed25519":false}}'],
                 requests.map(&:body).reject { |body| body.nil? || body.empty? }
  ensure
    server&.close
  end

  def test_ip_pools_paths_and_null_bodies
    pools = {
      object: "list",
      data: [{
        name: "main",
        warmup: "30d",
        addresses: [
          { address: "203.0.113.5", ehlo_name: "mta1.example.com", warmup_day: 3, daily_cap: 200,
            today: { gmail: 12, other: 3 },
            backed_off: [{ provider: "gmail", messages_per_minute: 300, until: "2026-01-01T01:00:00.000Z" }] },
          { address: "203.0.113.6", ehlo_name: nil, warmup_day: nil, daily_cap: 50, today: {}, backed_off: [] }
        ]
      }]
    }
    server = TinyHttpServer.scripted([200, {}, JSON.generate(pools)],
                                     [200, {}, '{"object":"domain","id":"d-1","ip_pool":null}'])
    mailroom = Mailroom::Client.new(api_key: "mr_live_local", base_url: server.url)
    assert_equal pools, mailroom.ip_pools.list
    mailroom.domains.update("example.com", ip_pool: "main")
    # nil is a value here (the domain leaves its pool): it must reach the server as null.
    assert_nil mailroom.domains.update(id: "d/1", ip_pool: nil).fetch(:ip_pool)
    mailroom.domains.create(name: "example.org", "ip_pool" => "main")

    requests = server.requests
    assert_equal [
      %w[GET /v1/ip-pools],
      %w[PATCH /v1/domains/example.com],
      %w[PATCH /v1/domains/d%2F1],
      %w[POST /v1/domains]
    ], requests.map { |r| [r.method, r.path] }
    assert_equal ['{"ip_pool":"main"}', '{"ip_pool":null}', '{"name":"example.org","ip_pool":"main"}'],
                 requests.map(&:body).reject { |body| body.nil? || body.empty? }
  ensure
    server&.close
  end
end
