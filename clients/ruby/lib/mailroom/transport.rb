# frozen_string_literal: true

require "json"
require "net/http"
require "openssl"
require "securerandom"
require "time"
require "uri"

# The HTTP layer: builds each request under `/v1`, authenticates it, applies the timeout and the opt-in retry
# policy, and turns every answer into a Hash (or a String for raw MIME) or a typed Mailroom::Error.
module Mailroom
  class Transport
    DEFAULT_BASE_URL = "http://127.0.0.1:3000"
    DEFAULT_TIMEOUT = 30
    USER_AGENT = "mailroom-ruby/#{VERSION}".freeze

    METHODS = {
      get: Net::HTTP::Get, post: Net::HTTP::Post, patch: Net::HTTP::Patch, delete: Net::HTTP::Delete
    }.freeze

    # Failures below HTTP: the request may or may not have reached the server.
    NETWORK_FAILURES = [
      SocketError, SystemCallError, IOError, EOFError, OpenSSL::SSL::SSLError, Net::HTTPBadResponse
    ].freeze
    TIMEOUT_FAILURES = [Net::OpenTimeout, Net::ReadTimeout, Net::WriteTimeout].freeze

    attr_reader :base_url, :timeout, :max_retries

    def initialize(api_key:, base_url: nil, timeout: DEFAULT_TIMEOUT, max_retries: 0,
                   retry_base_delay: 0.5, retry_max_delay: 8.0, user_agent: nil)
      raise ArgumentError, "api_key is required" if api_key.nil? || api_key.to_s.strip.empty?
      raise ArgumentError, "max_retries must be a non-negative integer" unless max_retries.is_a?(Integer) && max_retries >= 0

      @api_key = api_key.to_s
      @base_url = normalize_base_url(base_url || DEFAULT_BASE_URL)
      @timeout = timeout
      @max_retries = max_retries
      @retry_base_delay = retry_base_delay
      @retry_max_delay = retry_max_delay
      @user_agent = user_agent ? "#{user_agent} #{USER_AGENT}" : USER_AGENT
    end

    def retries_enabled?
      @max_retries.positive?
    end

    # path: below /v1, e.g. "/emails". query: Hash (nil values dropped). body: anything JSON-encodable.
    # raw: a String sent as it is instead of body, its Content-Type in headers (a multipart upload).
    # idempotency_key: sent as Idempotency-Key; the same value goes out on every retry of this call.
    def request(method, path, query: nil, body: nil, raw: nil, headers: {}, idempotency_key: nil)
      uri = build_uri(path, query)
      payload = raw || (body.nil? ? nil : JSON.generate(body))
      extra = headers.dup
      extra["Idempotency-Key"] = idempotency_key.to_s if idempotency_key
      attempt = 0
      begin
        perform(method, uri, payload, extra)
      rescue Error => e
        raise unless retryable?(e) && attempt < @max_retries

        sleep(retry_delay(e, attempt))
        attempt += 1
        retry
      end
    end

    # A key for a send whose caller gave none: with retries on, a retried send must never be sent twice.
    def self.generate_idempotency_key
      "mailroom-ruby-#{SecureRandom.uuid}"
    end

    private

    def normalize_base_url(url)
      url = url.to_s.strip.sub(%r{/+\z}, "")
      # A URL written for a Resend SDK already ends in /v1; the client adds it itself.
      url = url.sub(%r{/v1\z}, "")
      uri = URI.parse(url)
      raise ArgumentError, "base_url must be an http(s) URL, got #{url.inspect}" unless uri.is_a?(URI::HTTP) && uri.host

      url
    end

    def build_uri(path, query)
      uri = URI.parse("#{@base_url}/v1#{path}")
      pairs = (query || {}).reject { |_, v| v.nil? }.map { |k, v| [k.to_s, v.to_s] }
      uri.query = URI.encode_www_form(pairs) unless pairs.empty?
      uri
    end

    def perform(method, uri, payload, extra_headers)
      request = METHODS.fetch(method).new(uri)
      request["Authorization"] = "Bearer #{@api_key}"
      request["User-Agent"] = @user_agent
      request["Accept"] = "application/json"
      # Bodiless POSTs (cancel, verify, publish…) still declare JSON, which the server accepts as empty.
      request["Content-Type"] = "application/json" if request.request_body_permitted?
      request.body = payload if payload
      extra_headers.each { |k, v| request[k] = v }

      # Net::HTTP would silently repeat an idempotent request once; max_retries: 0 leaves retrying to our policy.
      response = Net::HTTP.start(uri.host, uri.port, use_ssl: uri.scheme == "https", max_retries: 0,
                                                     open_timeout: @timeout, read_timeout: @timeout,
                                                     write_timeout: @timeout) do |http|
        http.request(request)
      end
      handle(response)
    rescue *TIMEOUT_FAILURES => e
      raise TimeoutError.new("No answer from #{uri.host}:#{uri.port} within #{@timeout}s (#{e.class})",
                             name: TimeoutError.error_name)
    rescue *NETWORK_FAILURES => e
      raise NetworkError.new("Could not reach #{uri.host}:#{uri.port}: #{e.message}", name: NetworkError.error_name)
    end

    def handle(response)
      status = response.code.to_i
      headers = response.each_header.to_h
      body = decode(response)
      raise ErrorMapper.error_for(status, body, headers) unless status.between?(200, 299)

      body
    end

    def decode(response)
      text = response.body.to_s
      return {} if text.empty?
      return text unless response["content-type"].to_s.include?("json")

      JSON.parse(text, symbolize_names: true)
    rescue JSON::ParserError
      text
    end

    # Only failures a later attempt can cure: throttling, server-side faults, and no answer at all.
    # Other 4xx say the request itself is wrong, so repeating it cannot help. A used-up daily quota frees up at
    # 00:00 UTC: waiting out its Retry-After would hold the call for hours.
    def retryable?(error)
      return true if error.is_a?(NetworkError) || error.is_a?(TimeoutError)
      return false if error.status_code.nil? || error.is_a?(DailyQuotaExceededError)

      error.status_code == 429 || error.status_code >= 500
    end

    def retry_delay(error, attempt)
      return error.retry_after if error.status_code == 429 && error.retry_after

      backoff = [@retry_base_delay * (2**attempt), @retry_max_delay].min
      # The random half spreads out clients that failed together, so they do not all retry at the same moment.
      backoff / 2.0 + rand * backoff / 2.0
    end
  end
end
