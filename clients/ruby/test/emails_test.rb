# frozen_string_literal: true

# Sending against the real server: delivery to the loopback smarthost, attachments, tags, listing, raw MIME,
# batches in both validation modes, idempotency, and rescheduling then cancelling a scheduled send.
require "minitest/autorun"
require "test_helper"

class EmailsTest < Minitest::Test
  include MailroomTestHelper

  def test_send_with_attachments_and_tags_reaches_the_smarthost
    mailroom = client
    tag = unique("order")
    sent = mailroom.emails.send(email_params(
      subject: "Receipt #{tag}",
      text: "Thanks!",
      reply_to: "support@example.com",
      tags: [{ name: "kind", value: tag }],
      attachments: [{ filename: "receipt.txt", content: ["Thanks for your order"].pack("m0"), content_type: "text/plain" }]
    ))
    assert_match(/\A[0-9a-f-]{36}\z/, sent[:id])
    assert_equal "Email sent.", sent[:message]

    email = eventually("the email reaching status sent") do
      found = mailroom.emails.get(sent[:id])
      found if found[:status] == "sent"
    end
    assert_equal "email", email[:object]
    assert_equal "Receipt #{tag}", email[:subject]
    assert_equal [{ name: "kind", value: tag }], email[:tags]
    assert_equal ["support@example.com"], email[:reply_to]
    assert_nil email[:content_removed_at], "retention has not removed a message sent just now"

    attachments = mailroom.emails.attachments.list(email_id: sent[:id])
    assert_equal "list", attachments[:object]
    assert_equal ["receipt.txt"], attachments[:data].map { |a| a[:filename] }
    attachment = mailroom.emails.attachments.get(email_id: sent[:id], id: attachments[:data][0][:id])
    assert_equal "receipt.txt", attachment[:filename]
    # Each answer signs its own download link, expiring a fixed time after it was made: compare the rest.
    signed_link = %i[download_url expires_at]
    assert_equal attachment.except(*signed_link), mailroom.emails.attachments.get(sent[:id], attachment[:id]).except(*signed_link)

    raw = mailroom.emails.raw(sent[:id])
    assert_kind_of String, raw
    assert_includes raw, "Subject: Receipt #{tag}"

    listed = mailroom.emails.list(tag: "kind:#{tag}", limit: 10)
    assert_equal "list", listed[:object]
    assert_includes [true, false], listed[:has_more]
    assert_equal [sent[:id]], listed[:data].map { |e| e[:id] }
  end

  def test_list_pages_with_limit_and_after
    mailroom = client
    tag = unique("page")
    3.times { mailroom.emails.send(email_params(tags: [{ name: "page", value: tag }])) }
    first = mailroom.emails.list(tag: "page:#{tag}", limit: 2)
    assert_equal 2, first[:data].size
    assert_equal true, first[:has_more]
    second = mailroom.emails.list(tag: "page:#{tag}", limit: 2, after: first[:data].last[:id])
    assert_equal 1, second[:data].size
    assert_equal false, second[:has_more]
    assert_empty first[:data].map { |e| e[:id] } & second[:data].map { |e| e[:id] }
  end

  def test_batch_strict_sends_every_item
    result = client.batch.send([email_params, email_params], options: { batch_validation: "strict" })
    assert_equal 2, result[:data].size
    result[:data].each { |item| assert_match(/\A[0-9a-f-]{36}\z/, item[:id]) }
  end

  def test_batch_strict_refuses_the_whole_batch_for_one_invalid_item
    invalid = email_params.tap { |m| m.delete(:to) }
    error = assert_raises(Mailroom::ValidationError) { client.batch.send([email_params, invalid]) }
    assert_equal 400, error.status_code
    assert(error.details.any? { |d| d[:path].start_with?("1") }, "details name the item: #{error.details.inspect}")
  end

  def test_batch_permissive_sends_the_valid_items_and_reports_the_others
    invalid = email_params.tap { |m| m.delete(:to) }
    result = client.batch.send([email_params, invalid, email_params], options: { batch_validation: "permissive" })
    assert_equal 2, result[:data].size
    assert_equal [1], result[:errors].map { |e| e[:index] }
    assert_kind_of String, result[:errors][0][:message]
  end

  def test_batch_with_an_idempotency_key_replays
    mailroom = client
    batch = [email_params, email_params]
    key = unique("batch")
    first = mailroom.batch.send(batch, options: { idempotency_key: key })
    again = mailroom.batch.send(batch, options: { idempotency_key: key })
    assert_equal first[:data], again[:data]
  end

  def test_same_idempotency_key_gives_the_same_email
    mailroom = client
    body = email_params
    key = unique("order-1001/receipt")
    first = mailroom.emails.send(body, options: { idempotency_key: key })
    again = mailroom.emails.send(body, options: { idempotency_key: key })
    assert_equal first[:id], again[:id]

    error = assert_raises(Mailroom::InvalidIdempotentRequestError) do
      mailroom.emails.send(body.merge(subject: "another body"), options: { idempotency_key: key })
    end
    assert_equal 409, error.status_code
    assert_equal "invalid_idempotent_request", error.name
  end

  def test_reschedule_then_cancel_a_scheduled_email
    mailroom = client
    at = (Time.now.utc + 3600).iso8601(3)
    sent = mailroom.emails.send(email_params(scheduled_at: at))
    scheduled = mailroom.emails.get(sent[:id])
    assert_equal "scheduled", scheduled[:status]
    assert_equal Time.iso8601(at).to_i, Time.iso8601(scheduled[:scheduled_at]).to_i

    later = (Time.now.utc + 7200).iso8601(3)
    mailroom.emails.update(email_id: sent[:id], scheduled_at: later)
    assert_equal Time.iso8601(later).to_i, Time.iso8601(mailroom.emails.get(sent[:id])[:scheduled_at]).to_i

    even_later = (Time.now.utc + 10_800).iso8601(3)
    mailroom.emails.update(sent[:id], scheduled_at: even_later)
    assert_equal Time.iso8601(even_later).to_i, Time.iso8601(mailroom.emails.get(sent[:id])[:scheduled_at]).to_i

    mailroom.emails.cancel(sent[:id])
    assert_equal "canceled", mailroom.emails.get(sent[:id])[:status]
  end

  def test_string_keys_work_like_symbols
    body = email_params.transform_keys(&:to_s)
    sent = client.emails.send(body, options: { "idempotency_key" => unique("strings") })
    assert_equal body["subject"], client.emails.get(sent[:id])[:subject]
  end
end
