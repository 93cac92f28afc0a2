# frozen_string_literal: true

require "json"
require "openssl"

# Standard Webhooks verification (docs/events-and-webhooks.md): proves a webhook request was signed with the endpoint's secret,
# recently, and hands back its payload. Works on the raw body: a re-serialised body would not match.
module Mailroom
  module WebhookVerifier
    DEFAULT_TOLERANCE = 300
    SECRET_PREFIX = "whsec_"
    HEADER_SETS = [
      %w[webhook-id webhook-timestamp webhook-signature],
      # Resend's and Svix's libraries read these; Mailroom sends both sets.
      %w[svix-id svix-timestamp svix-signature]
    ].freeze

    module_function

    # payload: the raw request body (String). headers: any Hash of the request headers (string or symbol keys,
    # any case, Rack's HTTP_WEBHOOK_ID form too). secret: the endpoint's signing secret, "whsec_…"
    # (webhook_secret: is accepted as in Resend's SDK). tolerance: seconds the timestamp may differ from now.
    # Returns the parsed payload (symbol keys); raises Mailroom::WebhookVerificationError otherwise.
    def verify(payload:, headers:, secret: nil, webhook_secret: nil, tolerance: DEFAULT_TOLERANCE, now: Time.now)
      raise ArgumentError, "payload must be the raw body String" unless payload.is_a?(String)

      key = decode_secret(secret || webhook_secret)
      msg_id, timestamp, signatures = read_headers(headers)
      check_timestamp(timestamp, tolerance, now)

      # Bytes throughout: a non-ASCII body must be signed exactly as it was sent.
      signed = [msg_id, timestamp, payload].map(&:b).join(".".b)
      expected = [OpenSSL::HMAC.digest("SHA256", key, signed)].pack("m0")
      # A rotated endpoint signs with its old and new secrets for a while: any one match proves the sender.
      matched = signatures.split(" ").any? do |entry|
        version, signature = entry.split(",", 2)
        version == "v1" && signature && OpenSSL.secure_compare(expected, signature)
      end
      raise WebhookVerificationError, "no matching signature" unless matched

      JSON.parse(payload, symbolize_names: true)
    rescue JSON::ParserError
      raise WebhookVerificationError, "the signed payload is not JSON"
    end

    # The HMAC key: the base64 after "whsec_" (Standard Webhooks), so the prefix is never part of the key.
    def decode_secret(secret)
      raise ArgumentError, "the webhook signing secret is required" if secret.nil? || secret.to_s.empty?

      encoded = secret.to_s.delete_prefix(SECRET_PREFIX)
      encoded.unpack1("m0")
    rescue ArgumentError
      raise ArgumentError, "the webhook signing secret is not valid base64 after #{SECRET_PREFIX}"
    end

    def read_headers(headers)
      normalized = {}
      (headers || {}).each do |name, value|
        key = name.to_s.downcase.tr("_", "-").delete_prefix("http-")
        normalized[key] = Array(value).first.to_s
      end
      found = HEADER_SETS.map { |set| set.map { |h| normalized[h] } }.find { |values| values.none? { |v| v.nil? || v.empty? } }
      raise WebhookVerificationError, "missing webhook-id, webhook-timestamp or webhook-signature header" unless found

      found
    end

    def check_timestamp(timestamp, tolerance, now)
      raise WebhookVerificationError, "invalid webhook-timestamp" unless timestamp.match?(/\A\d+\z/)

      drift = (now.to_i - timestamp.to_i).abs
      # Refusing old timestamps is what stops a captured request from being replayed later.
      raise WebhookVerificationError, "webhook-timestamp is #{drift}s away from now (tolerance #{tolerance}s)" if drift > tolerance
    end
  end
end
