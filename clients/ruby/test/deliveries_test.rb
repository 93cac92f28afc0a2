# frozen_string_literal: true

# The delivery queue against the real server: a message scheduled an hour ahead waits, queued, for as long as the
# suite runs, so its recipients can be listed, counted, refused a retry, canceled one by id and in bulk; the
# actions that do not apply, an unknown id, an empty bulk filter and a key without the scope are refused.
require "minitest/autorun"
require "test_helper"

class DeliveriesTest < Minitest::Test
  include MailroomTestHelper

  # A message to two recipients that waits, queued, for an hour.
  def scheduled_to_two(mailroom)
    recipients = [recipient("queue"), recipient("queue")]
    sent = mailroom.emails.send(email_params(to: recipients, scheduled_at: (Time.now.utc + 3600).iso8601(3)))
    [sent[:id], recipients]
  end

  def test_list_summary_and_actions_on_a_waiting_message
    mailroom = client
    email_id, recipients = scheduled_to_two(mailroom)

    listed = mailroom.deliveries.list(email_id: email_id)
    assert_equal "list", listed[:object]
    assert_equal false, listed[:has_more]
    assert_equal recipients.sort, listed[:data].map { |d| d[:recipient] }.sort
    listed[:data].each do |delivery|
      assert_equal "delivery", delivery[:object]
      assert_equal email_id, delivery[:email_id]
      assert_equal "queued", delivery[:status]
      assert_equal 0, delivery[:attempts]
      assert_nil delivery[:provider]
    end
    assert_equal 2, mailroom.deliveries.list("email_id" => email_id, status: "queued", limit: 10)[:data].size
    assert_empty mailroom.deliveries.list(email_id: email_id, status: "deferred")[:data]

    summary = mailroom.deliveries.summary
    assert_equal "queue_summary", summary[:object]
    assert_operator summary[:by_status][:queued], :>=, 2
    assert_equal %i[deferred held queued sending], summary[:by_status].keys.sort
    domain = summary[:by_domain].find { |d| d[:domain] == "recipients.test" }
    refute_nil domain, summary[:by_domain].inspect
    assert_operator domain[:queued], :>=, 2
    assert_kind_of String, summary[:oldest_waiting_at]

    first, second = listed[:data]
    error = assert_raises(Mailroom::ConflictError) { mailroom.deliveries.retry(first[:id]) }
    assert_equal 409, error.status_code
    assert_equal "conflict", error.name

    canceled = mailroom.deliveries.cancel(first[:id])
    assert_equal "delivery", canceled[:object]
    assert_equal first[:id], canceled[:id]
    assert_equal "canceled", canceled[:status]

    bulk = mailroom.deliveries.bulk.cancel(email_id: email_id)
    assert_equal({ object: "bulk", matched: 1, changed: 1 }, bulk)
    assert_empty mailroom.deliveries.list(email_id: email_id)[:data]
    statuses = mailroom.emails.get(email_id)[:recipients].to_h { |r| [r[:email], r[:status]] }
    assert_equal({ first[:recipient] => "canceled", second[:recipient] => "canceled" }, statuses)
  end

  def test_actions_that_do_not_apply_are_refused
    mailroom = client
    email_id, = scheduled_to_two(mailroom)
    delivery = mailroom.deliveries.list(email_id: email_id)[:data].first

    # A queued delivery is neither deferred (retry) nor held (release); it stays as it was.
    assert_raises(Mailroom::ConflictError) { mailroom.deliveries.release(delivery[:id]) }
    assert_equal({ object: "bulk", matched: 0, changed: 0 }, mailroom.deliveries.bulk.retry(email_id: email_id))
    assert_equal({ object: "bulk", matched: 0, changed: 0 }, mailroom.deliveries.bulk.release("email_id" => email_id))
    assert_equal %w[queued queued], mailroom.deliveries.list(email_id: email_id)[:data].map { |d| d[:status] }

    assert_raises(Mailroom::NotFoundError) { mailroom.deliveries.cancel(SecureRandom.uuid) }
    assert_raises(ArgumentError) { mailroom.deliveries.cancel(nil) }

    # A bulk action without a filter would touch the whole queue: the server refuses it.
    error = assert_raises(Mailroom::ValidationError) { mailroom.deliveries.bulk.cancel({}) }
    assert_equal 400, error.status_code
    assert_equal 2, mailroom.deliveries.list(email_id: email_id)[:data].size

    # Canceling the message stops every recipient still waiting; then nothing waits and a second cancel is refused.
    assert_equal "canceled", mailroom.emails.cancel(email_id)[:status]
    assert_empty mailroom.deliveries.list(email_id: email_id)[:data]
    assert_raises(Mailroom::ConflictError) { mailroom.emails.cancel(email_id) }
  end

  def test_a_sending_key_cannot_read_the_queue
    sending = client(api_key: env("MAILROOM_SENDING_KEY"))
    assert_raises(Mailroom::InsufficientScopeError) { sending.deliveries.list }
    assert_raises(Mailroom::InsufficientScopeError) { sending.deliveries.summary }
    assert_raises(Mailroom::InsufficientScopeError) { sending.deliveries.bulk.cancel(status: "held") }
  end
end
