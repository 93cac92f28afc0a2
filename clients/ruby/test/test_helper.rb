# frozen_string_literal: true

# What every test file shares: the server's coordinates from the harness (test/clients.test.ts), clients built
# from them, unique names, polling, and a local HTTP server for the cases Mailroom itself cannot produce.
require "minitest"
require "securerandom"
require "time"
require "mailroom"
require_relative "support/tiny_http_server"

module MailroomTestHelper
  REQUIRED_ENV = %w[
    MAILROOM_BASE_URL MAILROOM_API_KEY MAILROOM_SENDING_KEY MAILROOM_LIMITED_KEY MAILROOM_FROM MAILROOM_INBOUND_SUBJECT
    MAILROOM_PUBLIC_URL
  ].freeze

  # The suite needs a live server: run it through the harness rather than let it pass having tested nothing.
  def self.env(name)
    value = ENV.fetch(name, "")
    raise "#{name} is not set: run this suite through test/clients.test.ts, which starts the server" if value.empty?

    value
  end

  def env(name)
    MailroomTestHelper.env(name)
  end

  def client(api_key: env("MAILROOM_API_KEY"), **options)
    Mailroom::Client.new(api_key: api_key, base_url: env("MAILROOM_BASE_URL"), **options)
  end

  def unique(prefix)
    "#{prefix}-#{SecureRandom.hex(6)}"
  end

  def recipient(prefix = "ruby")
    "#{unique(prefix)}@recipients.test"
  end

  # A minimal valid send; each test adds what it is about.
  def email_params(**fields)
    { from: env("MAILROOM_FROM"), to: recipient, subject: unique("Ruby client"), html: "<p>Hello from Ruby</p>" }
      .merge(fields)
  end

  # Calls the block until it returns a truthy value, or fails after `timeout` seconds with the last value seen.
  def eventually(what, timeout: 15, interval: 0.2)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
    last = nil
    loop do
      last = yield
      return last if last
      break if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

      sleep interval
    end
    flunk "#{what} did not happen within #{timeout}s (last: #{last.inspect})"
  end

  def monotonic
    Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
end
