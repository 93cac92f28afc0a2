# frozen_string_literal: true

# Webhook endpoints against the real server: a signed delivery to a local receiver verified with the library
# (and a tampered copy refused), then the management round trip with rotation, events, attempts and replay.
require "minitest/autorun"
require "test_helper"
require "json"

class WebhooksTest < Minitest::Test
  include MailroomTestHelper

  def setup
    @receiver = TinyHttpServer.new { [200, {}, "{}"] }
    @webhook_ids = []
  end

  def teardown
    @webhook_ids.each do |id|
      client.webhooks.remove(id)
    rescue Mailroom::NotFoundError
      nil
    end
    @receiver.close
  end

  def create_webhook(events)
    client.webhooks.create(endpoint: "#{@receiver.url}/hooks/#{unique('ruby')}", events: events).tap do |created|
      @webhook_ids << created[:id]
    end
  end

  def delivery_for(email_id)
    eventually("the email.sent webhook for #{email_id}") do
      @receiver.requests.find do |r|
        r.method == "POST" && JSON.parse(r.body).dig("data", "email_id") == email_id
      rescue JSON::ParserError
        false
      end
    end
  end

  def test_a_real_delivery_verifies_and_a_tampered_one_does_not
    webhook = create_webhook(["email.sent"])
    assert_equal "webhook", webhook[:object]
    assert webhook[:signing_secret].start_with?("whsec_")

    sent = client.emails.send(email_params)
    request = delivery_for(sent[:id])
    %w[webhook-id webhook-timestamp webhook-signature svix-id svix-timestamp svix-signature].each do |header|
      refute_nil request.headers[header], "#{header} is sent"
    end

    payload = Mailroom::Webhooks.verify(payload: request.body, headers: request.headers, secret: webhook[:signing_secret])
    assert_equal "email.sent", payload[:type]
    assert_equal sent[:id], payload[:data][:email_id]

    svix_only = request.headers.select { |k, _| k.start_with?("svix-") }
    assert_equal payload, client.webhooks.verify(payload: request.body, headers: svix_only,
                                                 webhook_secret: webhook[:signing_secret])

    tampered = request.body.sub(sent[:id], "00000000-0000-4000-8000-000000000000")
    refute_equal request.body, tampered
    error = assert_raises(Mailroom::WebhookVerificationError) do
      Mailroom::Webhooks.verify(payload: tampered, headers: request.headers, secret: webhook[:signing_secret])
    end
    assert_kind_of Mailroom::Error, error
    assert_raises(Mailroom::WebhookVerificationError) do
      Mailroom::Webhooks.verify(payload: request.body, headers: request.headers, secret: "whsec_#{['other key'].pack('m0')}")
    end
  end

  def test_round_trip_with_rotation_events_attempts_and_replay
    mailroom = client
    webhook = create_webhook(["email.delivered"])
    id = webhook[:id]

    fetched = mailroom.webhooks.get(id)
    assert_equal id, fetched[:id]
    assert_equal ["email.delivered"], fetched[:events]

    listed = mailroom.webhooks.list(limit: 100)
    assert_equal "list", listed[:object]
    assert_includes [true, false], listed[:has_more]
    assert_includes listed[:data].map { |w| w[:id] }, id

    mailroom.webhooks.update(webhook_id: id, events: ["email.delivered", "email.bounced"])
    assert_equal ["email.delivered", "email.bounced"].sort, mailroom.webhooks.get(id)[:events].sort
    mailroom.webhooks.update(id, description: "ruby client test")
    assert_equal "ruby client test", mailroom.webhooks.get(id)[:description]

    rotated = mailroom.webhooks.rotate_signing_secret(id)
    assert rotated[:signing_secret].start_with?("whsec_")
    refute_equal webhook[:signing_secret], rotated[:signing_secret]

    mailroom.webhooks.test(id)
    sample = eventually("the test event reaching the receiver") { @receiver.requests.find { |r| r.method == "POST" } }
    # For 24 h after a rotation both secrets sign: either one verifies.
    [webhook[:signing_secret], rotated[:signing_secret]].each do |secret|
      Mailroom::Webhooks.verify(payload: sample.body, headers: sample.headers, secret: secret)
    end

    event = eventually("the test event marked delivered") do
      mailroom.webhooks.list_events(id)[:data].find { |e| e[:status] == "success" }
    end
    events = mailroom.webhooks.list_events(id, limit: 10)
    assert_equal "list", events[:object]
    assert_equal event[:id], mailroom.webhooks.get_event(id, event[:id])[:id]
    attempts = mailroom.webhooks.list_event_attempts(id, event[:id])
    assert_equal "list", attempts[:object]
    refute_empty attempts[:data]

    before = @receiver.requests.size
    mailroom.webhooks.replay_event(id, event[:id])
    eventually("the replayed event reaching the receiver") { @receiver.requests.size > before }
    replayed = @receiver.requests.last
    assert_equal sample.headers["webhook-id"], replayed.headers["webhook-id"]

    removed = mailroom.webhooks.remove(id)
    assert_equal({ object: "webhook", id: id, deleted: true }, removed.slice(:object, :id, :deleted))
    assert_raises(Mailroom::NotFoundError) { mailroom.webhooks.get(id) }
  end
end
