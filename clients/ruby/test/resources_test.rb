# frozen_string_literal: true

# Round trips of the management resources against the real server: domains, API keys (with a key's own daily
# quota) and suppressions (one by one and in batches), with Resend's list and delete shapes.
require "minitest/autorun"
require "test_helper"

class ResourcesTest < Minitest::Test
  include MailroomTestHelper

  def assert_deleted(object, id, answer)
    assert_equal({ object: object, id: id, deleted: true }, answer.slice(:object, :id, :deleted))
  end

  def test_domains_round_trip
    mailroom = client
    name = "#{unique('ruby')}.example.org"
    domain = mailroom.domains.create(name: name)
    assert_equal name, domain[:name]
    assert(domain[:records].any? { |r| r[:record] == "DKIM" }, domain[:records].inspect)

    assert_equal domain[:id], mailroom.domains.get(domain[:id])[:id]
    listed = mailroom.domains.list(limit: 100)
    assert_equal "list", listed[:object]
    assert_includes [true, false], listed[:has_more]
    assert_includes listed[:data].map { |d| d[:id] }, domain[:id]

    assert_equal true, mailroom.domains.update(id: domain[:id], open_tracking: true)[:open_tracking]
    assert_equal false, mailroom.domains.update(domain[:id], open_tracking: false)[:open_tracking]
    assert_equal domain[:id], mailroom.domains.verify(domain[:id])[:id]

    assert_deleted "domain", domain[:id], mailroom.domains.remove(domain[:id])
    assert_raises(Mailroom::NotFoundError) { mailroom.domains.get(domain[:id]) }
  end

  def test_api_keys_round_trip
    mailroom = client
    name = unique("ruby-key")
    created = mailroom.api_keys.create(name: name, permission: "sending_access")
    assert_match(/\A[0-9a-f-]{36}\z/, created[:id])
    assert created[:token].start_with?("mr_live_")
    assert_nil created[:daily_quota], "no quota of its own unless asked for"

    new_key = client(api_key: created[:token])
    assert_raises(Mailroom::InsufficientScopeError) { new_key.domains.list }

    listed = mailroom.api_keys.list(limit: 100)
    assert_equal "list", listed[:object]
    assert_includes [true, false], listed[:has_more]
    assert_includes listed[:data].map { |k| k[:id] }, created[:id]
    listed[:data].each { |k| assert_nil k[:token] }

    mailroom.api_keys.update(created[:id], name: "#{name}-renamed")
    renamed = mailroom.api_keys.list(limit: 100)[:data].find { |k| k[:id] == created[:id] }
    assert_equal "#{name}-renamed", renamed[:name]

    assert_deleted "api_key", created[:id], mailroom.api_keys.remove(created[:id])
    assert_raises(Mailroom::UnauthorizedError) { new_key.emails.send(email_params) }
  end

  def test_a_keys_own_daily_quota
    mailroom = client
    created = mailroom.api_keys.create(name: unique("ruby-quota"), permission: "sending_access", daily_quota: 1)
    begin
      assert_equal 1, created[:daily_quota]
      assert_equal 1, mailroom.api_keys.list(limit: 100)[:data].find { |k| k[:id] == created[:id] }[:daily_quota]

      limited = client(api_key: created[:token])
      limited.emails.send(email_params)
      error = assert_raises(Mailroom::DailyQuotaExceededError) { limited.emails.send(email_params) }
      assert_equal 429, error.status_code
      assert_operator error.retry_after, :>, 0
    ensure
      mailroom.api_keys.remove(created[:id])
    end

    error = assert_raises(Mailroom::ValidationError) do
      mailroom.api_keys.create(name: unique("ruby-quota"), daily_quota: 0)
    end
    assert_includes error.details.map { |d| d[:path] }, "daily_quota"
  end

  def test_suppressions_round_trip
    mailroom = client
    address = "#{unique("suppressed")}+tag@recipients.test" # the plus must survive the path
    added = mailroom.suppressions.add(email: address, reason: "asked by phone")
    assert_equal "suppression", added[:object]
    assert_equal address, added[:email]
    assert_equal "manual", added[:origin]

    assert_equal added[:id], mailroom.suppressions.get(added[:id])[:id]
    assert_equal added[:id], mailroom.suppressions.get(address)[:id]
    listed = mailroom.suppressions.list(limit: 100, search: address)
    assert_equal "list", listed[:object]
    assert_equal [added[:id]], listed[:data].map { |s| s[:id] }

    # A message to a suppressed address is accepted and recorded as suppressed, never delivered.
    sent = mailroom.emails.send(email_params(to: [address, recipient]))
    recipients = mailroom.emails.get(sent[:id])[:recipients]
    assert_equal "suppressed", recipients.find { |r| r[:email] == address }[:status]

    assert_deleted "suppression", added[:id], mailroom.suppressions.remove(address)
    assert_raises(Mailroom::NotFoundError) { mailroom.suppressions.get(address) }
  end

  def test_suppressions_in_batches
    mailroom = client
    addresses = [recipient("batch"), recipient("batch"), recipient("batch")]
    added = mailroom.suppressions.batch.add(emails: addresses, reason: "import")
    assert_equal addresses.sort, added[:data].map { |s| s[:email] }.sort

    by_email = mailroom.suppressions.batch.remove(emails: addresses.first(2))
    assert_equal 2, by_email[:data].size
    by_id = mailroom.suppressions.batch.remove(ids: [added[:data].find { |s| s[:email] == addresses[2] }[:id]])
    assert_equal 1, by_id[:data].size
    addresses.each { |a| assert_raises(Mailroom::NotFoundError) { mailroom.suppressions.get(a) } }

    assert_raises(ArgumentError) { mailroom.suppressions.batch.remove(emails: addresses, ids: []) }
  end
end
