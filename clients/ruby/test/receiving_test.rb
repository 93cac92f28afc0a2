# frozen_string_literal: true

# Received mail: the message the harness delivered to the inbound MX before the suite started is listed,
# readable by id, with its attachments and raw MIME.
require "minitest/autorun"
require "test_helper"

class ReceivingTest < Minitest::Test
  include MailroomTestHelper

  def test_the_inbound_message_is_listed_and_readable
    mailroom = client
    subject = env("MAILROOM_INBOUND_SUBJECT")
    listed = mailroom.emails.receiving.list(limit: 100)
    assert_equal "list", listed[:object]
    assert_includes [true, false], listed[:has_more]
    summary = listed[:data].find { |m| m[:subject] == subject }
    refute_nil summary, "#{subject.inspect} among #{listed[:data].map { |m| m[:subject] }.inspect}"

    received = mailroom.receiving.get(summary[:id])
    assert_equal summary[:id], received[:id]
    assert_equal subject, received[:subject]
    assert_includes Array(received[:to]).join(" "), "support@example.com"

    attachments = mailroom.emails.receiving.attachments.list(email_id: summary[:id])
    assert_equal "list", attachments[:object]
    assert_equal [], attachments[:data]

    assert_includes mailroom.emails.receiving.raw(summary[:id]), "Subject: #{subject}"
  end

  def test_an_unknown_received_email_is_not_found
    assert_raises(Mailroom::NotFoundError) { client.receiving.get("00000000-0000-4000-8000-000000000000") }
  end
end
