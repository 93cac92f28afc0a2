# frozen_string_literal: true

# The request log, usage and email metrics against the real server: a refused request found in the log with its
# answer, the organisation's usage after a send, and metrics by day (a timezone the server cannot count in refused by
# name).
require "minitest/autorun"
require "test_helper"

class LogsTest < Minitest::Test
  include MailroomTestHelper

  def test_a_refused_request_is_in_the_log_with_its_answer
    mailroom = client
    missing = recipient
    assert_raises(Mailroom::NotFoundError) { mailroom.contacts.get(missing) }
    # Entries are written shortly after the answer (in batches), so the test waits for this one.
    # The endpoint is the path as sent, which this client percent-encodes ("@" is %40).
    endpoint = "/contacts/#{missing.sub('@', '%40')}"
    entry = eventually("the request appears in the log") do
      mailroom.logs.list(status: 404, method: "GET", limit: 100)[:data].find { |e| e[:endpoint] == endpoint }
    end
    assert_equal [404, "GET"], entry.values_at(:response_status, :method)
    assert_match(%r{\Amailroom-ruby/}, entry[:user_agent])
    logged = mailroom.logs.get(entry[:id])
    assert_equal ["log", entry[:id], nil], logged.values_at(:object, :id, :request_body)
    assert_equal "not_found", logged[:response_body][:name]
    assert_empty mailroom.logs.list(status: 404, api_key_id: "00000000-0000-4000-8000-000000000000")[:data]
    assert_raises(Mailroom::NotFoundError) { mailroom.logs.get("00000000-0000-4000-8000-000000000000") }
  end

  def test_usage_and_metrics
    mailroom = client
    mailroom.emails.send(email_params)
    usage = mailroom.usage.get
    assert_equal "usage", usage[:object]
    assert_operator usage[:emails][:daily][:used], :>=, 1
    assert_operator usage[:domains][:used], :>=, 1

    today = Time.now.utc.strftime("%Y-%m-%d")
    # The statistics count a message as sent once the smarthost took it.
    metrics = eventually("the send is counted") do
      got = mailroom.emails.metrics(start_date: (Time.now.utc - (2 * 86_400)).strftime("%Y-%m-%d"), end_date: today,
                                    granularity: "daily", metrics: %w[sent delivery_rate], dimensions: ["period"])
      got if got[:totals][:sent].to_i >= 1
    end
    assert_equal ["metrics", %w[sent delivery_rate]], metrics.values_at(:object, :metrics)
    assert_equal 3, metrics[:data].size
    assert_equal today, metrics[:data].last[:period][0, 10]
    error = assert_raises(Mailroom::ValidationError) { mailroom.emails.metrics(timezone: "Europe/Paris") }
    assert(error.details.any? { |d| d[:path] == "timezone" }, error.details.inspect)
  end
end
