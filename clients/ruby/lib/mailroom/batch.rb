# frozen_string_literal: true

# Batch sending (docs/sending.md): up to 100 emails in one request, all or nothing (strict) or the valid ones
# (permissive, with the others' errors by index).
module Mailroom
  class Batch < Resource
    VALIDATION_MODES = %w[strict permissive].freeze

    # POST /v1/emails/batch → Types::CreateBatchResponse (errors: in permissive mode only).
    # options: { idempotency_key: "…", batch_validation: "strict" | "permissive" }.
    def send(emails, options: {})
      raise ArgumentError, "emails must be an Array of send params" unless emails.is_a?(Array)

      opts = (options || {}).transform_keys(&:to_sym)
      headers = {}
      if opts[:batch_validation]
        mode = opts[:batch_validation].to_s
        unless VALIDATION_MODES.include?(mode)
          raise ArgumentError, "batch_validation must be one of #{VALIDATION_MODES.join(', ')}"
        end

        headers["x-batch-validation"] = mode
      end
      @transport.request(:post, "/emails/batch", body: emails, headers: headers,
                                                 idempotency_key: Idempotency.key_for(@transport, opts))
    end
  end
end
