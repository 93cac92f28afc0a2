# frozen_string_literal: true

# Contacts against the real server: made, found by id and by address, listed by segment, updated with a property,
# removed; segments and audiences with their members; topics and a contact's choices, and a send with a topic that
# skips whoever left it; contact properties; and a CSV import followed to its counts.
require "minitest/autorun"
require "stringio"
require "test_helper"

class ContactsTest < Minitest::Test
  include MailroomTestHelper

  def test_round_trip_by_id_and_by_address
    mailroom = client
    plan = mailroom.contact_properties.create(key: "plan_#{SecureRandom.hex(4)}", type: "string", fallback_value: "free")
    assert_equal "contact_property", plan[:object]
    group = mailroom.segments.create(name: unique("ruby-segment"))
    address = recipient
    contact = mailroom.contacts.create(email: address, first_name: "Ada", segments: [{ id: group[:id] }])
    assert_equal ["contact", address, "Ada"], contact.values_at(:object, :email, :first_name)
    assert_raises(Mailroom::ConflictError) { mailroom.contacts.create(email: address) }

    assert_equal "free", mailroom.contacts.get(address)[:properties][plan[:key].to_sym][:value]
    assert_equal contact[:id], mailroom.contacts.get(email: address)[:id]
    updated = mailroom.contacts.update(address, first_name: nil, last_name: "Lovelace", properties: { plan[:key] => "pro" })
    assert_nil updated[:first_name]
    assert_equal "Lovelace", updated[:last_name]
    # Resend's form: the id inside the params.
    mailroom.contacts.update(id: contact[:id], unsubscribed: true)
    again = mailroom.contacts.get(contact[:id])
    assert_equal [true, "pro"], [again[:unsubscribed], again[:properties][plan[:key].to_sym][:value]]

    in_group = mailroom.contacts.list(segment_id: group[:id])
    assert_equal "list", in_group[:object]
    assert_equal [contact[:id]], in_group[:data].map { |c| c[:id] }
    assert_equal 1, mailroom.contacts.list(limit: 1)[:data].size

    removed = mailroom.contacts.remove(address)
    assert_equal({ object: "contact", id: contact[:id], contact: contact[:id], deleted: true }, removed)
    assert_raises(Mailroom::NotFoundError) { mailroom.contacts.get(contact[:id]) }
    assert_raises(ArgumentError) { mailroom.contacts.get("") }
  ensure
    mailroom&.segments&.remove(group[:id]) if group
    mailroom&.contact_properties&.remove(plan[:id]) if plan
  end

  def test_segments_audiences_and_membership
    mailroom = client
    contact = mailroom.contacts.create(email: recipient)
    # An audience is a segment: made on one path, it is found on the other.
    audience = mailroom.audiences.create(name: unique("ruby-audience"))
    assert_equal "segment", audience[:object]
    assert_equal audience[:name], mailroom.segments.get(audience[:id])[:name]
    renamed = mailroom.segments.update(audience[:id], name: "#{audience[:name]}-renamed")
    assert_equal renamed[:name], mailroom.audiences.get(audience[:id])[:name]
    assert_includes mailroom.audiences.list(limit: 100)[:data].map { |s| s[:id] }, audience[:id]

    added = mailroom.contacts.segments.add(contact[:email], audience[:id])
    assert_equal [audience[:id], contact[:id]], added.values_at(:id, :contact_id)
    assert_equal [audience[:id]], mailroom.contacts.segments.list(contact_id: contact[:id])[:data].map { |s| s[:id] }
    assert_equal [contact[:id]], mailroom.segments.contacts(audience[:id])[:data].map { |c| c[:id] }
    assert_equal [contact[:id]], mailroom.contacts.list(audience_id: audience[:id])[:data].map { |c| c[:id] }
    taken = mailroom.contacts.segments.remove(email: contact[:email], segment_id: audience[:id])
    assert_equal true, taken[:deleted]
    assert_empty mailroom.contacts.segments.list(contact[:id])[:data]

    assert_equal({ object: "segment", id: audience[:id], deleted: true }, mailroom.audiences.remove(audience[:id]))
    assert_equal contact[:id], mailroom.contacts.get(contact[:id])[:id]
    assert_raises(Mailroom::NotFoundError) { mailroom.segments.get(audience[:id]) }
  ensure
    mailroom&.contacts&.remove(contact[:id]) if contact
  end

  def test_topics_and_sending_with_a_topic
    mailroom = client
    topic = mailroom.topics.create(name: unique("ruby-news"), description: "Monthly news",
                                   default_subscription: "opt_in", visibility: "public")
    assert_equal %w[topic opt_in], topic.values_at(:object, :default_subscription)
    updated = mailroom.topics.update(topic[:id], description: nil, visibility: "private")
    assert_equal [nil, "private", topic[:name]], updated.values_at(:description, :visibility, :name)
    assert_equal "private", mailroom.topics.update(topic_id: topic[:id], name: topic[:name])[:visibility]
    assert_equal "private", mailroom.topics.get(topic[:id])[:visibility]
    refute_empty mailroom.topics.list(limit: 100)[:data]

    left = recipient
    stayed = recipient
    contacts = [left, stayed].map { |address| mailroom.contacts.create(email: address) }
    assert_equal "opt_in", choice(mailroom, left, topic[:id])
    assert_equal contacts[0][:id], mailroom.contacts.topics.update(left, [{ id: topic[:id], subscription: "opt_out" }])[:id]
    assert_equal "opt_out", choice(mailroom, left, topic[:id])
    mailroom.contacts.topics.update(email: stayed, topics: [{ id: topic[:id], subscription: "opt_in" }])

    # The contact who left the topic is recorded suppressed; the other is sent to.
    sent = mailroom.emails.send(email_params(to: [left, stayed], topic_id: topic[:id]))
    email = mailroom.emails.get(sent[:id])
    assert_equal topic[:id], email[:topic_id]
    statuses = email[:recipients].to_h { |r| [r[:email], r[:status]] }
    assert_equal "suppressed", statuses[left]
    refute_equal "suppressed", statuses[stayed]

    assert_equal({ object: "topic", id: topic[:id], deleted: true }, mailroom.topics.remove(topic[:id]))
  ensure
    contacts&.each { |c| mailroom.contacts.remove(c[:id]) }
  end

  def test_contact_properties
    mailroom = client
    key = "seats_#{SecureRandom.hex(4)}"
    property = mailroom.contact_properties.create(key: key, type: "number", fallback_value: 1)
    assert_equal [key, "number", 1], property.values_at(:key, :type, :fallback_value)
    assert_nil mailroom.contact_properties.update(property[:id], fallback_value: nil)[:fallback_value]
    assert_equal 5, mailroom.contact_properties.update(id: property[:id], fallback_value: 5)[:fallback_value]
    assert_equal key, mailroom.contact_properties.get(property[:id])[:key]
    assert_includes mailroom.contact_properties.list[:data].map { |p| p[:id] }, property[:id]
    error = assert_raises(Mailroom::ValidationError) { mailroom.contact_properties.create(key: "9 not a key", type: "string") }
    assert(error.details.any? { |d| d[:path] == "key" }, error.details.inspect)
    assert_equal true, mailroom.contact_properties.remove(property[:id])[:deleted]
  end

  def test_csv_import
    mailroom = client
    group = mailroom.segments.create(name: unique("ruby-imported"))
    first = recipient
    second = recipient
    csv = "E-mail,Given name\n#{first},Ada\n#{second},Grace\nnot-an-address,Nobody\n"
    created = mailroom.contacts.imports.create(file: StringIO.new(csv), column_map: { email: "E-mail", first_name: "Given name" },
                                               segments: [group[:id]], on_conflict: "skip")
    assert_equal "contact_import", created[:object]
    done = eventually("the import completes", timeout: 30) do
      got = mailroom.contacts.imports.get(created[:id])
      got if got[:status] == "completed"
    end
    assert_equal [2, 1], done[:counts].values_at(:created, :failed)
    assert_equal [4], done[:errors].map { |e| e[:line] }
    assert_equal "Grace", mailroom.contacts.get(second)[:first_name]
    assert_equal 2, mailroom.contacts.list(segment_id: group[:id])[:data].size
    listed = mailroom.contacts.imports.list(status: "completed", limit: 100)
    assert_includes listed[:data].map { |i| i[:id] }, created[:id]

    assert_raises(Mailroom::ValidationError) { mailroom.contacts.imports.create(file: csv, on_conflict: "overwrite") }
    assert_raises(ArgumentError) { mailroom.contacts.imports.create(on_conflict: "skip") }
  ensure
    if created
      [first, second].each do |address|
        mailroom.contacts.remove(address)
      rescue Mailroom::NotFoundError
        nil
      end
    end
    mailroom&.segments&.remove(group[:id]) if group
  end

  private

  def choice(mailroom, contact, topic_id)
    mailroom.contacts.topics.list(contact)[:data].find { |t| t[:id] == topic_id }&.dig(:subscription)
  end
end

# What the live tests cannot see: the import's multipart body, resent whole on a retry, and the paths and bodies of
# the hash forms Resend's Ruby SDK uses.
class ContactsWireTest < Minitest::Test
  def test_import_is_multipart_and_retried_whole
    server = TinyHttpServer.scripted([503, {}, ""], [200, { "Content-Type" => "application/json" },
                                                     '{"object":"contact_import","id":"imp_1"}'])
    mailroom = Mailroom::Client.new(api_key: "mr_live_local", base_url: server.url, max_retries: 1,
                                    retry_base_delay: 0.01, retry_max_delay: 0.01)
    created = mailroom.contacts.imports.create(file: "email\nada@example.org\n", column_map: { email: "E-mail" },
                                               on_conflict: "skip", segments: ["seg_1"], evil: "x\r\nX: y")
    assert_equal "imp_1", created[:id]
    requests = server.requests
    assert_equal 2, requests.size
    assert_equal requests[0].body, requests[1].body
    boundary = requests[1].headers["content-type"][/boundary=(\S+)/, 1]
    parts = requests[1].body.split("--#{boundary}")[1..-2].to_h do |part|
      head, value = part.split("\r\n\r\n", 2)
      [head[/name="([^"]+)"/, 1], value.chomp("\r\n")]
    end
    assert_equal({ "column_map" => '{"email":"E-mail"}', "on_conflict" => "skip", "segments" => '[{"id":"seg_1"}]',
                   "file" => "email\nada@example.org\n" }, parts)
  ensure
    server&.close
  end

  def test_hash_forms
    server = TinyHttpServer.scripted([200, { "Content-Type" => "application/json" }, '{"id":"c_1"}'])
    mailroom = Mailroom::Client.new(api_key: "mr_live_local", base_url: server.url)
    mailroom.contacts.create(audience_id: "a1", email: "ada@example.org")
    mailroom.contacts.update(email: "ada@example.org", first_name: "Ada")
    mailroom.contacts.segments.add(contact_id: "c 1", segment_id: "s/1")
    mailroom.contacts.topics.update(email: "ada@example.org", topics: [{ id: "t1", subscription: "opt_in" }])
    mailroom.contacts.list(audience_id: "a1", limit: 5)
    mailroom.emails.metrics(metrics: %w[sent open_rate], dimensions: ["period"])
    mailroom.logs.list(status: 422, method: "POST")
    assert_raises(ArgumentError) { mailroom.contacts.segments.add(email: "ada@example.org") }
    assert_raises(ArgumentError) { mailroom.contacts.topics.update("ada@example.org") }
    assert_equal [
      ["POST", "/v1/audiences/a1/contacts", '{"email":"ada@example.org"}'],
      ["PATCH", "/v1/contacts/ada%40example.org", '{"first_name":"Ada"}'],
      ["POST", "/v1/contacts/c%201/segments/s%2F1", ""],
      ["PATCH", "/v1/contacts/ada%40example.org/topics", '[{"id":"t1","subscription":"opt_in"}]'],
      ["GET", "/v1/contacts?limit=5&segment_id=a1", ""],
      ["GET", "/v1/emails/metrics?metrics=sent%2Copen_rate&dimensions=period", ""],
      ["GET", "/v1/logs?status=422&method=POST", ""]
    ], server.requests.map { |r| [r.method, r.path, r.body.to_s] }
  ensure
    server&.close
  end
end
