# frozen_string_literal: true

# The opt-in retry policy against a local server that fails on purpose: 429 waits Retry-After, 503 backs off,
# other 4xx and a used-up daily quota are never retried, and a retried send carries the same Idempotency-Key every
# time; 410 is typed as gone.
require "minitest/autorun"
require "test_helper"

class RetriesTest < Minitest::Test
  include MailroomTestHelper

  OK = [200, {}, '{"id":"11111111-1111-4111-8111-111111111111","message":"Email sent."}'].freeze
  RATE_LIMITED = [429, { "Retry-After" => "1" },
                  '{"error":"Too Many Requests","name":"rate_limit_exceeded","message":"Slow down.","statusCode":429}'].freeze
  UNAVAILABLE = [503, {},
                 '{"error":"Service Unavailable","name":"service_unavailable","message":"Shutting down.","statusCode":503}'].freeze
  QUOTA_USED_UP = [429, { "Retry-After" => "3600" },
                   '{"error":"Too Many Requests","name":"daily_quota_exceeded","message":"Used up.","statusCode":429}'].freeze
  INVALID = [400, {},
             '{"error":"Bad Request","name":"validation_error","message":"to: is required","statusCode":400,' \
             '"details":[{"path":"to","message":"is required"}]}'].freeze

  def setup
    @servers = []
  end

  def teardown
    @servers.each(&:close)
  end

  def serve(*responses)
    TinyHttpServer.scripted(*responses).tap { |s| @servers << s }
  end

  def local_client(server, **options)
    Mailroom::Client.new(api_key: "mr_live_local", base_url: server.url, retry_base_delay: 0.05, **options)
  end

  def test_a_429_is_retried_after_retry_after_seconds
    server = serve(RATE_LIMITED, OK)
    started = monotonic
    result = local_client(server, max_retries: 2).emails.send(email_params)
    assert_equal "11111111-1111-4111-8111-111111111111", result[:id]
    assert_equal 2, server.requests.size
    assert_operator monotonic - started, :>=, 0.95, "waited Retry-After: 1"
  end

  def test_without_retries_a_429_is_raised_with_retry_after
    server = serve(RATE_LIMITED, OK)
    error = assert_raises(Mailroom::RateLimitExceededError) { local_client(server).emails.send(email_params) }
    assert_equal 1, error.retry_after
    assert_equal 1, server.requests.size
  end

  def test_a_503_is_retried_with_backoff
    server = serve(UNAVAILABLE, OK)
    result = local_client(server, max_retries: 1).domains.get("example.com")
    assert_equal "11111111-1111-4111-8111-111111111111", result[:id]
    assert_equal 2, server.requests.size
  end

  def test_without_retries_a_503_is_raised
    server = serve(UNAVAILABLE, OK)
    error = assert_raises(Mailroom::ServiceUnavailableError) { local_client(server).domains.get("example.com") }
    assert_equal "service_unavailable", error.name
    assert_equal 503, error.status_code
    assert_equal 1, server.requests.size
  end

  def test_a_timeout_is_retried
    server = TinyHttpServer.new { |_request, index| index.zero? ? :hang : OK }
    @servers << server
    result = local_client(server, max_retries: 1, timeout: 1.0).emails.send(email_params)
    assert_equal "11111111-1111-4111-8111-111111111111", result[:id]
    assert_equal 2, server.requests.size
  end

  def test_retries_stop_after_max_retries
    server = serve(UNAVAILABLE)
    assert_raises(Mailroom::ServiceUnavailableError) { local_client(server, max_retries: 2).domains.list }
    assert_equal 3, server.requests.size
  end

  def test_other_4xx_are_never_retried
    server = serve(INVALID, OK)
    error = assert_raises(Mailroom::ValidationError) { local_client(server, max_retries: 3).emails.send(email_params) }
    assert_equal [{ path: "to", message: "is required" }], error.details
    assert_equal 1, server.requests.size
  end

  def test_a_used_up_daily_quota_is_never_retried
    server = serve(QUOTA_USED_UP, OK)
    error = assert_raises(Mailroom::DailyQuotaExceededError) do
      local_client(server, max_retries: 3).emails.send(email_params)
    end
    assert_equal "daily_quota_exceeded", error.name
    assert_equal 3600, error.retry_after
    assert_equal 1, server.requests.size, "waiting for the next UTC day is the caller's decision"
    refute_kind_of Mailroom::RateLimitExceededError, error
  end

  def test_content_removed_by_retention_is_gone
    server = serve([410, {}, '{"error":"Gone","name":"gone","message":"Retention removed it.","statusCode":410}'],
                   [410, { "Content-Type" => "text/plain" }, "Gone"])
    error = assert_raises(Mailroom::GoneError) { local_client(server).emails.raw("abc") }
    assert_equal ["gone", 410], [error.name, error.status_code]
    bare = assert_raises(Mailroom::GoneError) { local_client(server).emails.raw("abc") }
    assert_equal "gone", bare.name, "typed by its status without Mailroom's body"
  end

  def test_a_retried_send_reuses_a_generated_idempotency_key
    server = serve(UNAVAILABLE, OK)
    local_client(server, max_retries: 1).emails.send(email_params)
    keys = server.requests.map { |r| r.headers["idempotency-key"] }
    assert_equal 2, keys.size
    refute_nil keys[0]
    assert_equal keys[0], keys[1]
  end

  def test_a_retried_batch_reuses_the_callers_idempotency_key
    server = serve(UNAVAILABLE, [200, {}, '{"data":[]}'])
    local_client(server, max_retries: 1).batch.send([email_params], options: { idempotency_key: "batch-7" })
    assert_equal %w[batch-7 batch-7], server.requests.map { |r| r.headers["idempotency-key"] }
  end

  def test_without_retries_no_idempotency_key_is_invented
    server = serve(OK)
    local_client(server).emails.send(email_params)
    assert_nil server.requests[0].headers["idempotency-key"]
  end

  def test_requests_carry_auth_user_agent_and_the_v1_prefix
    server = serve(OK)
    Mailroom::Client.new(api_key: "mr_live_local", base_url: "#{server.url}/").emails.get("abc")
    request = server.requests[0]
    assert_equal "GET", request.method
    assert_equal "/v1/emails/abc", request.path
    assert_equal "Bearer mr_live_local", request.headers["authorization"]
    assert_equal "mailroom-ruby/0.1.0", request.headers["user-agent"]
  end
end
