# frozen_string_literal: true

# Where sends and batches get their Idempotency-Key (docs/sending.md: kept 24 h per API key and endpoint).
module Mailroom
  module Idempotency
    module_function

    # The caller's key, else a fresh one when retries are on: a retried send then replays the first answer
    # instead of sending a second message.
    def key_for(transport, options)
      options = (options || {}).transform_keys(&:to_sym)
      key = options[:idempotency_key]
      return key.to_s if key
      return Transport.generate_idempotency_key if transport.retries_enabled?

      nil
    end
  end
end
