# frozen_string_literal: true

# The entry point: one Client per API key and server, holding a resource object per API area.
module Mailroom
  class Client
    attr_reader :emails, :batch, :domains, :api_keys, :webhooks, :suppressions, :templates, :ai, :deliveries,
                :sending, :ip_pools, :organization, :organizations, :members, :audit_log, :contacts,
                :contact_properties, :segments, :audiences, :topics, :broadcasts, :logs, :usage,
                :transport

    # api_key: "mr_live_…" / "mr_test_…" (default ENV["MAILROOM_API_KEY"]).
    # base_url: the server, without /v1 (default ENV["MAILROOM_BASE_URL"] or http://127.0.0.1:3000).
    # timeout: seconds to connect, and to wait for each read and write (default 30).
    # max_retries: extra attempts after a 429 (not a used-up daily quota), 5xx, network error or timeout (default 0:
    # off).
    # retry_base_delay / retry_max_delay: the exponential backoff's first step and ceiling, in seconds.
    def initialize(api_key: ENV.fetch("MAILROOM_API_KEY", nil), base_url: ENV.fetch("MAILROOM_BASE_URL", nil),
                   timeout: Transport::DEFAULT_TIMEOUT, max_retries: 0, retry_base_delay: 0.5, retry_max_delay: 8.0,
                   user_agent: nil)
      @transport = Transport.new(api_key: api_key, base_url: base_url, timeout: timeout, max_retries: max_retries,
                                 retry_base_delay: retry_base_delay, retry_max_delay: retry_max_delay,
                                 user_agent: user_agent)
      @emails = Emails.new(@transport)
      @batch = Batch.new(@transport)
      @domains = Domains.new(@transport)
      @api_keys = ApiKeys.new(@transport)
      @webhooks = Webhooks.new(@transport)
      @suppressions = Suppressions.new(@transport)
      @templates = Templates.new(@transport)
      @ai = AI.new(@transport)
      @deliveries = Deliveries.new(@transport)
      @sending = Sending.new(@transport)
      @ip_pools = IpPools.new(@transport)
      @organization = Organization.new(@transport)
      @organizations = Organizations.new(@transport)
      @members = Members.new(@transport)
      @audit_log = AuditLog.new(@transport)
      @contacts = Contacts.new(@transport)
      @contact_properties = ContactProperties.new(@transport)
      @segments = Segments.new(@transport)
      # Resend's older name for segments, on its older paths.
      @audiences = Audiences.new(@transport)
      @topics = Topics.new(@transport)
      @broadcasts = Broadcasts.new(@transport)
      @logs = Logs.new(@transport)
      @usage = Usage.new(@transport)
    end

    # Received mail; the same object as emails.receiving (Resend's place for it).
    def receiving
      @emails.receiving
    end

    def inspect
      "#<#{self.class.name} base_url=#{@transport.base_url.inspect}>"
    end
  end
end
