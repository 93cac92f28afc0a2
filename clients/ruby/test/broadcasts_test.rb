# frozen_string_literal: true

# Broadcasts against the real server: a personalised draft to a segment, changed, duplicated, listed and sent,
# followed until each contact's message is sent (the smarthost took it) and found among its recipients; a scheduled
# broadcast cancelled back to draft; and what a sent broadcast refuses.
require "minitest/autorun"
require "test_helper"

class BroadcastsTest < Minitest::Test
  include MailroomTestHelper

  def test_a_broadcast_to_a_segment
    mailroom = client
    group = mailroom.segments.create(name: unique("ruby-readers"))
    ada = recipient
    contacts = [{ email: ada, first_name: "Ada" }, { email: recipient }].map do |contact|
      mailroom.contacts.create(**contact, segments: [{ id: group[:id] }])
    end
    created = mailroom.broadcasts.create(name: unique("ruby-broadcast"), segment_id: group[:id], from: env("MAILROOM_FROM"),
                                         subject: "Draft subject", html: "<p>Hello {{{FIRST_NAME|there}}}</p>")
    draft = mailroom.broadcasts.get(created[:id])
    assert_equal ["broadcast", "draft", group[:id]], draft.values_at(:object, :status, :segment_id)
    mailroom.broadcasts.update(broadcast_id: created[:id], subject: "News for {{{FIRST_NAME|you}}}")
    copy = mailroom.broadcasts.duplicate(created[:id])
    refute_equal created[:id], copy[:id]
    assert_equal({ object: "broadcast", id: copy[:id], deleted: true }, mailroom.broadcasts.remove(copy[:id]))
    assert_includes mailroom.broadcasts.list(limit: 100)[:data].map { |b| b[:id] }, created[:id]

    assert_equal created[:id], mailroom.broadcasts.send(created[:id])[:id]
    done = eventually("both messages are handed to the smarthost", timeout: 30) do
      got = mailroom.broadcasts.get(created[:id])
      got if got[:status] == "sent" && got[:counts][:by_status][:sent] == 2
    end
    assert_equal 2, done[:counts][:messages]
    found = mailroom.broadcasts.recipients(created[:id], type: "sent", email: ada)[:data]
    assert_equal [ada], found.map { |r| r[:email] }
    message = mailroom.emails.get(found[0][:id])
    assert_equal "News for Ada", message[:subject]
    assert_includes message[:html], "Hello Ada"
    assert_empty mailroom.broadcasts.clicked_links(created[:id])[:data]
    assert_raises(Mailroom::ConflictError) { mailroom.broadcasts.remove(created[:id]) }
    assert_raises(Mailroom::ConflictError) { mailroom.broadcasts.update(created[:id], name: "too late") }
  ensure
    contacts&.each { |c| mailroom.contacts.remove(c[:id]) }
    mailroom&.segments&.remove(group[:id]) if group
  end

  def test_scheduled_then_cancelled_back_to_draft
    mailroom = client
    group = mailroom.segments.create(name: unique("ruby-later"))
    created = mailroom.broadcasts.create(segment_id: group[:id], from: env("MAILROOM_FROM"), subject: "Later",
                                         text: "Later", send: true, scheduled_at: "in 2 hours")
    queued = mailroom.broadcasts.get(created[:id])
    assert_equal "queued", queued[:status]
    refute_nil queued[:scheduled_at]
    assert_equal created[:id], mailroom.broadcasts.cancel(created[:id])[:id]
    assert_equal ["draft", nil], mailroom.broadcasts.get(created[:id]).values_at(:status, :scheduled_at)
    assert_raises(Mailroom::ConflictError) { mailroom.broadcasts.cancel(created[:id]) }
    assert_equal true, mailroom.broadcasts.remove(created[:id])[:deleted]
    assert_raises(ArgumentError) { mailroom.broadcasts.recipients("", type: "sent") }
  ensure
    mailroom&.segments&.remove(group[:id]) if group
  end
end
