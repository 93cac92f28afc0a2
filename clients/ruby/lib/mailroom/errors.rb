# frozen_string_literal: true

require "time"

# The library's error vocabulary: one class per `name` the server can answer (docs/errors.md), the client-side
# failures (network, timeout) and webhook verification. Callers branch on the class or on `name`.
module Mailroom
  # Every failure raised by this library. `status_code` is nil when no HTTP answer was received.
  class Error < StandardError
    attr_reader :name, :status_code, :details, :retry_after, :error, :request_id, :body, :headers

    def initialize(message = nil, name: nil, status_code: nil, details: nil, retry_after: nil,
                   error: nil, request_id: nil, body: nil, headers: nil)
      super(message || name || "Mailroom request failed")
      @name = name
      @status_code = status_code
      @details = details || []
      @retry_after = retry_after
      @error = error
      @request_id = request_id
      @body = body
      @headers = headers || {}
    end

    # The server's snake_case name for this failure, as each subclass declares it.
    def self.error_name
      nil
    end

    def to_h
      { name: name, status_code: status_code, message: message, details: details, retry_after: retry_after }
    end
  end

  # Declares a subclass per server name in one place, so the table and the classes cannot drift apart.
  API_ERRORS = {
    "validation_error" => [:ValidationError, 400],
    "invalid_idempotency_key" => [:InvalidIdempotencyKeyError, 400],
    "unauthorized" => [:UnauthorizedError, 401],
    "insufficient_scope" => [:InsufficientScopeError, 403],
    "not_found" => [:NotFoundError, 404],
    "method_not_allowed" => [:MethodNotAllowedError, 405],
    "invalid_idempotent_request" => [:InvalidIdempotentRequestError, 409],
    "concurrent_idempotent_requests" => [:ConcurrentIdempotentRequestsError, 409],
    "conflict" => [:ConflictError, 409],
    "payload_too_large" => [:PayloadTooLargeError, 413],
    "domain_not_verified" => [:DomainNotVerifiedError, 422],
    "rate_limit_exceeded" => [:RateLimitExceededError, 429],
    # retry_after: the seconds to 00:00 UTC, when the organisation's or the key's count starts again.
    "daily_quota_exceeded" => [:DailyQuotaExceededError, 429],
    # Retention removed the email's content (raw message, bodies, attachments); its record remains.
    "gone" => [:GoneError, 410],
    "internal_error" => [:InternalError, 500],
    "service_unavailable" => [:ServiceUnavailableError, 503]
  }.freeze

  API_ERRORS.each do |error_name, (class_name, _status)|
    klass = Class.new(Error) { define_singleton_method(:error_name) { error_name } }
    const_set(class_name, klass)
  end

  # No answer reached us: refused connection, reset, DNS failure, TLS failure.
  class NetworkError < Error
    def self.error_name
      "network_error"
    end
  end

  # The server did not answer within the client's timeout.
  class TimeoutError < Error
    def self.error_name
      "timeout"
    end
  end

  # A webhook request whose signature, timestamp or headers do not check out: treat it as forged.
  class WebhookVerificationError < Error
    def self.error_name
      "webhook_verification_error"
    end

    def initialize(message)
      super(message, name: self.class.error_name)
    end
  end

  # Maps an HTTP failure to its class: by the body's `name` when it is one of ours, else by status, so an answer
  # from a proxy in front of Mailroom (a bare 502, an HTML 429) is still typed usefully.
  module ErrorMapper
    BY_NAME = API_ERRORS.to_h { |error_name, (class_name, _)| [error_name, Mailroom.const_get(class_name)] }.freeze
    BY_STATUS = {
      400 => "validation_error", 401 => "unauthorized", 403 => "insufficient_scope", 404 => "not_found",
      405 => "method_not_allowed", 409 => "conflict", 410 => "gone", 413 => "payload_too_large",
      422 => "domain_not_verified",
      429 => "rate_limit_exceeded", 503 => "service_unavailable"
    }.freeze

    module_function

    def error_for(status, body, headers)
      fields = body.is_a?(Hash) ? body : {}
      error_name = fields[:name].is_a?(String) ? fields[:name] : nil
      fallback = BY_STATUS[status] || (status >= 500 ? "internal_error" : nil)
      klass = BY_NAME[error_name] || BY_NAME[fallback] || Error
      message = fields[:message].is_a?(String) ? fields[:message] : "HTTP #{status}"
      klass.new(
        message,
        name: error_name || fallback || "http_#{status}",
        status_code: status,
        details: fields[:details].is_a?(Array) ? fields[:details] : [],
        retry_after: parse_retry_after(headers["retry-after"]),
        error: fields[:error],
        request_id: fields[:request_id] || headers["x-request-id"],
        body: body,
        headers: headers
      )
    end

    # Retry-After is seconds here (docs/keys-and-limits.md); an HTTP date from an intermediary is converted to seconds.
    def parse_retry_after(value)
      return nil if value.nil? || value.strip.empty?
      return Float(value.strip).then { |s| s == s.to_i ? s.to_i : s } if value.strip.match?(/\A\d+(\.\d+)?\z/)

      seconds = (Time.httpdate(value) - Time.now).ceil
      seconds.positive? ? seconds : 0
    rescue ArgumentError
      nil
    end
  end
end
