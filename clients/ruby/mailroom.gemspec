# frozen_string_literal: true

require_relative "lib/mailroom/version"

Gem::Specification.new do |spec|
  spec.name = "mailroom"
  spec.version = Mailroom::VERSION
  spec.summary = "Client for the Mailroom transactional email server (Resend-compatible API)"
  spec.description = "Send, schedule and track email, manage domains, API keys, webhooks, suppressions, " \
                     "templates, received mail and the delivery queue on a self-hosted Mailroom server; " \
                     "verify its webhooks. " \
                     "Standard library only."
  spec.authors = ["Mailroom"]
  spec.license = "MIT"
  spec.files = Dir["lib/**/*.rb"] + %w[README.md CHANGELOG.md mailroom.gemspec]
  spec.require_paths = ["lib"]
  spec.required_ruby_version = ">= 3.0"
  spec.metadata["rubygems_mfa_required"] = "true"
end
