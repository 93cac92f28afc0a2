# frozen_string_literal: true

# Failures as the caller sees them: each server error as its typed class with name, status_code, message,
# details and retry_after, and the client-side failures (no server, no answer) typed the same way.
require "minitest/autorun"
require "test_helper"

class ErrorsTest < Minitest::Test
  include MailroomTestHelper

  UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"

  def test_a_bad_key_is_unauthorized
    error = assert_raises(Mailroom::UnauthorizedError) { client(api_key: "mr_live_not_a_real_key").domains.list }
    assert_equal "unauthorized", error.name
    assert_equal 401, error.status_code
    refute_empty error.message
    assert_kind_of Mailroom::Error, error
  end

  def test_a_sending_key_may_not_list_domains
    error = assert_raises(Mailroom::InsufficientScopeError) { client(api_key: env("MAILROOM_SENDING_KEY")).domains.list }
    assert_equal "insufficient_scope", error.name
    assert_equal 403, error.status_code
  end

  def test_a_send_without_to_is_a_validation_error_with_details
    params = email_params
    params.delete(:to)
    error = assert_raises(Mailroom::ValidationError) { client.emails.send(params) }
    assert_equal "validation_error", error.name
    assert_equal 400, error.status_code
    assert_includes error.details.map { |d| d[:path] }, "to"
    assert(error.details.all? { |d| d[:message].is_a?(String) })
    assert_equal "Bad Request", error.error
  end

  def test_an_unknown_email_is_not_found
    error = assert_raises(Mailroom::NotFoundError) { client.emails.get(UNKNOWN_ID) }
    assert_equal "not_found", error.name
    assert_equal 404, error.status_code
    assert_nil error.retry_after
  end

  def test_the_third_quick_request_of_a_limited_key_is_rate_limited
    limited = client(api_key: env("MAILROOM_LIMITED_KEY"))
    2.times { limited.domains.list }
    error = assert_raises(Mailroom::RateLimitExceededError) { limited.domains.list }
    assert_equal "rate_limit_exceeded", error.name
    assert_equal 429, error.status_code
    assert_operator error.retry_after, :>, 0
  end

  def test_no_server_is_a_network_error
    closed_port = TCPServer.new("127.0.0.1", 0).then { |s| s.addr[1].tap { s.close } }
    error = assert_raises(Mailroom::NetworkError) do
      Mailroom::Client.new(api_key: "mr_live_x", base_url: "http://127.0.0.1:#{closed_port}").domains.list
    end
    assert_equal "network_error", error.name
    assert_nil error.status_code
  end

  def test_no_answer_within_the_timeout_is_a_timeout
    silent = TinyHttpServer.new { :hang }
    started = monotonic
    error = assert_raises(Mailroom::TimeoutError) do
      Mailroom::Client.new(api_key: "mr_live_x", base_url: silent.url, timeout: 0.5).domains.list
    end
    assert_equal "timeout", error.name
    assert_nil error.status_code
    assert_operator monotonic - started, :<, 0.9, "one attempt only: retries are off"
    assert_equal 1, silent.requests.size
  ensure
    silent&.close
  end

  def test_an_answer_without_a_mailroom_body_is_typed_by_its_status
    proxy = TinyHttpServer.scripted([502, { "Content-Type" => "text/html" }, "<h1>Bad gateway</h1>"])
    error = assert_raises(Mailroom::InternalError) do
      Mailroom::Client.new(api_key: "mr_live_x", base_url: proxy.url).domains.list
    end
    assert_equal 502, error.status_code
    assert_equal "internal_error", error.name
  ensure
    proxy&.close
  end
end
