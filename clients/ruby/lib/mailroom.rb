# frozen_string_literal: true

# Mailroom's Ruby client: loads the library. Start with Mailroom::Client.new(api_key:, base_url:).
require_relative "mailroom/version"
require_relative "mailroom/errors"
require_relative "mailroom/transport"
require_relative "mailroom/resource"
require_relative "mailroom/idempotency"
require_relative "mailroom/emails"
require_relative "mailroom/receiving"
require_relative "mailroom/batch"
require_relative "mailroom/domains"
require_relative "mailroom/api_keys"
require_relative "mailroom/webhooks"
require_relative "mailroom/suppressions"
require_relative "mailroom/templates"
require_relative "mailroom/ai"
require_relative "mailroom/webhook_verifier"
require_relative "mailroom/client"
