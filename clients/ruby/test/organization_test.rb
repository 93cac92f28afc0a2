# frozen_string_literal: true

# The organisation's settings against the real server: what GET shows, the daily quota reached (the message past it
# refused with daily_quota_exceeded and Retry-After) and lifted, retention changed and returned to its default, bad
# values and a key without the scopes refused; and, on a local server, the paths and the nulls of the bodies.
#
# Every language's suite changes the same organisation on the same server, one after another: each change made here
# is undone whatever happens, so no quota outlives its test.
require "minitest/autorun"
require "test_helper"

class OrganizationTest < Minitest::Test
  include MailroomTestHelper

  def test_get_shows_the_settings_in_force_and_todays_usage
    org = client.organization.get
    assert_equal "organization", org[:object]
    assert_equal %i[object id name rate_limit daily_quota usage_today retention paused storage created_at].sort,
                 org.keys.sort
    assert_kind_of String, org[:id]
    assert_kind_of String, org[:name]
    assert_operator org[:rate_limit], :>=, 1
    assert(org[:daily_quota].nil? || org[:daily_quota] >= 1, org.inspect)
    assert_kind_of Integer, org[:usage_today]
    assert_equal %i[content_days metadata_days], org[:retention].keys.sort
    assert_operator org[:retention][:content_days], :>=, 1
    assert_includes [true, false], org[:paused]
    # nil until the retention job first counts what the organisation stores.
    assert_equal %i[content_bytes measured_at messages], org[:storage].keys.sort unless org[:storage].nil?
    assert_kind_of Time, Time.iso8601(org[:created_at])
  end

  def test_the_daily_quota_refuses_the_message_past_it_until_it_is_reset
    mailroom = client
    begin
      # The server reserves a second's expected sends ahead and gives back what it did not use when the second
      # ends: past that, usage_today is exact.
      sleep 1.1
      used = mailroom.organization.get[:usage_today]
      limited = mailroom.organization.update(daily_quota: used + 1)
      assert_equal "organization", limited[:object]
      assert_equal used + 1, limited[:daily_quota]

      mailroom.emails.send(email_params)
      error = assert_raises(Mailroom::DailyQuotaExceededError) { mailroom.emails.send(email_params) }
      assert_equal "daily_quota_exceeded", error.name
      assert_equal 429, error.status_code
      # The seconds to 00:00 UTC, when the count starts again.
      assert_operator error.retry_after, :>, 0
      assert_operator error.retry_after, :<=, 86_400
      assert_equal used + 1, mailroom.organization.get[:usage_today], "the refused message is not counted"
    ensure
      restored = mailroom.organization.update(daily_quota: nil)
    end
    assert_nil restored[:daily_quota]
    assert_kind_of String, mailroom.emails.send(email_params)[:id]
  end

  def test_retention_changes_and_returns_to_its_default
    organization = client.organization
    default = organization.get[:retention]
    begin
      changed = organization.update("retention" => { "content_days" => 90 })
      assert_equal({ content_days: 90, metadata_days: default[:metadata_days] }, changed[:retention])
    ensure
      restored = organization.update(retention: { content_days: nil })
    end
    assert_equal default, restored[:retention]
  end

  def test_bad_values_are_refused
    organization = client.organization
    {
      { daily_quota: 0 } => "daily_quota",
      { rate_limit: "many" } => "rate_limit",
      { retention: { content_days: 0 } } => "retention.content_days",
      { paused: true } => "paused"
    }.each do |params, path|
      error = assert_raises(Mailroom::ValidationError, params.inspect) { organization.update(params) }
      assert_equal "validation_error", error.name
      assert_equal 400, error.status_code
      assert_includes "#{error.message} #{error.details.inspect}", path
    end
    assert_raises(ArgumentError) { organization.update(nil) }
  ensure
    # A refused change changes nothing; should one be taken, it must not outlive this test.
    organization&.update(daily_quota: nil, rate_limit: nil, retention: { content_days: nil })
  end

  def test_a_sending_key_may_not_read_or_change_it
    organization = client(api_key: env("MAILROOM_SENDING_KEY")).organization
    error = assert_raises(Mailroom::InsufficientScopeError) { organization.get }
    assert_equal "insufficient_scope", error.name
    assert_equal 403, error.status_code
    assert_raises(Mailroom::InsufficientScopeError) { organization.update(daily_quota: 1) }
  end

  def test_paths_and_null_bodies
    server = TinyHttpServer.scripted([200, {}, '{"object":"organization","id":"o-1","daily_quota":null}'])
    organization = Mailroom::Client.new(api_key: "mr_live_local", base_url: server.url).organization
    assert_nil organization.get[:daily_quota]
    organization.update(daily_quota: 500, retention: { content_days: nil })
    organization.update("daily_quota" => nil)
    requests = server.requests
    assert_equal [%w[GET /v1/organization], %w[PATCH /v1/organization], %w[PATCH /v1/organization]],
                 requests.map { |r| [r.method, r.path] }
    assert_equal ['{"daily_quota":500,"retention":{"content_days":null}}', '{"daily_quota":null}'],
                 requests.drop(1).map(&:body)
  ensure
    server&.close
  end
end
