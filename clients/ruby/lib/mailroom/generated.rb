# frozen_string_literal: true

# Generated from the OpenAPI document by `npm run generate` — do not edit.
#
# The request and response shapes of Mailroom's API, as its OpenAPI document (/openapi.json) names them: each route's
# contract writes its schemas there, and `npm run generate` prints them here, so these and the server's answers cannot
# differ. The client answers Hashes with symbol keys; each constant of Types lists the keys of one shape with what each
# holds (`optional:` may be absent, `or nil` may be null).
module Mailroom
  module Types
    # An address to suppress by hand (origin manual). Sent to POST /v1/suppressions.
    AddSuppressionOptions = {
      email: "String",
      # Why, for your records (null: none).
      reason: "optional: String or nil",
    }.freeze

    # Answered by GET /v1/ai.
    AiStatus = {
      object: '"ai"',
      model_configured: "true or false",
      # The configured model's name (never its server or key).
      model: "String or nil",
      # What to configure, when no model is.
      message: "String or nil",
    }.freeze

    # Answered by GET /v1/api-keys.
    ApiKey = {
      object: '"api_key"',
      id: "String (uuid)",
      name: "String",
      # test keys send into the sandbox only.
      mode: "one of live, test",
      # The first characters of the key, enough to recognise it, never enough to use it.
      token_prefix: "String",
      scopes: "Array of one of emails:send, emails:read, domains:read, domains:write, templates:read, " \
              "templates:write, webhooks:read, webhooks:write, suppressions:read, suppressions:write, inbound:read, " \
              "api_keys:read, api_keys:write, ai:use, deliveries:read, deliveries:write, organization:read, " \
              "organization:write, members:read, members:write, audit:read, contacts:read, contacts:write, logs:read",
      # The sending domains it is restricted to; null: any.
      domains: "Array of String or nil",
      rate_limit_per_minute: "Integer or nil",
      # Messages per UTC day; null: none of its own.
      daily_quota: "Integer or nil",
      created_at: "String (date-time)",
      last_used_at: "String (date-time) or nil",
      revoked_at: "String (date-time) or nil",
    }.freeze

    AuditActor = {
      type: "one of user, api_key, cli, system",
      # The user's or key's id; null for the operator and the system.
      id: "String or nil",
      # The person's email, the key's name, operator or Mailroom.
      name: "String or nil",
    }.freeze

    AuditTarget = {
      type: "String",
      id: "String or nil",
      name: "String or nil",
    }.freeze

    # Answered by GET /v1/audit-log.
    AuditEvent = {
      object: '"audit_event"',
      id: "String (uuid)",
      created_at: "String (date-time)",
      organization_id: "String or nil",
      actor: "AuditActor",
      # <object>.<verb>: api_key.created, member.invited, ….
      action: "String",
      # Null for an action that concerns no one object.
      target: "AuditTarget or nil",
      ip: "String or nil",
      user_agent: "String or nil",
      # The settings changed and their values (or {from, to}); null when the action has none.
      changes: "Hash of any value or nil",
    }.freeze

    # Addresses to suppress; those already suppressed keep their entry. Sent to POST /v1/suppressions/batch/add.
    BatchAddSuppressionsOptions = {
      emails: "Array of String",
      # Why, for your records (null: none).
      reason: "optional: String or nil",
    }.freeze

    # Suppressions to remove, by address (emails) or by id (ids): one of the two. Sent to POST
    # /v1/suppressions/batch/remove.
    BatchRemoveSuppressionsOptions = {
      emails: "optional: Array of String",
      ids: "optional: Array of String",
    }.freeze

    BlocklistListing = {
      address: "String",
      list: "String",
      listed: "true or false",
      reason: "String or nil",
      checked_at: "String (date-time)",
    }.freeze

    # Recipients per status.
    BroadcastCountsByStatus = {
      queued: "Integer",
      sent: "Integer",
      delivered: "Integer",
      deferred: "Integer",
      bounced: "Integer",
      complained: "Integer",
      failed: "Integer",
      suppressed: "Integer",
      canceled: "Integer",
      held: "Integer",
    }.freeze

    # Mailroom's figures (docs/broadcasts.md#counts).
    BroadcastCounts = {
      # Contacts of the segment the fan-out has reached so far.
      contacts_reached: "Integer",
      # Messages made: one per eligible contact.
      messages: "Integer",
      # Contacts reached who were unsubscribed or suppressed: no message.
      skipped: "Integer",
      # Recipients per status.
      by_status: "BroadcastCountsByStatus",
    }.freeze

    # A saved template in place of html and text, rendered once at send.
    BroadcastTemplate = {
      # The template's id or alias (its published version is sent).
      id: "String",
      # The template's own variables.
      variables: "optional: Hash of any value",
    }.freeze

    # Answered by GET /v1/broadcasts/{id}.
    Broadcast = {
      object: '"broadcast"',
      id: "String",
      name: "String",
      segment_id: "String or nil",
      audience_id: "String or nil",
      from: "String or nil",
      subject: "String or nil",
      reply_to: "Array of String or nil",
      preview_text: "String or nil",
      # draft → queued (scheduled, or being fanned out) → sent; canceled: stopped while sending.
      status: "one of draft, queued, sent, canceled",
      created_at: "String (date-time)",
      scheduled_at: "String (date-time) or nil",
      sent_at: "String (date-time) or nil",
      topic_id: "String or nil",
      html: "String or nil",
      text: "String or nil",
      template: "BroadcastTemplate or nil",
      counts: "BroadcastCounts",
    }.freeze

    # Answered by GET /v1/broadcasts/{id}/clicked-links.
    BroadcastClickedLink = {
      # A cursor for paging, not an entity.
      id: "String",
      url: "String",
      clicks: "Integer",
      unique_clicks: "Integer",
    }.freeze

    BroadcastRecipientClickedLink = {
      url: "String",
      clicks: "Integer",
    }.freeze

    # Answered by GET /v1/broadcasts/{id}/recipients.
    BroadcastRecipient = {
      # The message's id (GET /emails/{id}).
      id: "String",
      contact_id: "String or nil",
      email: "String",
      # opened, clicked: how many times.
      count: "optional: Integer",
      clicked_links: "optional: Array of BroadcastRecipientClickedLink",
      bounce_type: "optional: one of permanent, transient, undetermined",
    }.freeze

    # Answered by GET /v1/broadcasts.
    BroadcastSummary = {
      id: "String",
      name: "String",
      audience_id: "String or nil",
      segment_id: "String or nil",
      status: "one of draft, queued, sent, canceled",
      created_at: "String (date-time)",
      scheduled_at: "String (date-time) or nil",
      sent_at: "String (date-time) or nil",
    }.freeze

    # A waiting status, or sending while an attempt is under way.
    QueueStatus = %w[queued deferred held sending].freeze

    # At least one filter. Sent to POST /v1/deliveries/cancel, POST /v1/deliveries/release, POST /v1/deliveries/retry.
    BulkDeliveriesOptions = {
      status: "optional: QueueStatus",
      # The recipients' domain.
      domain: "optional: String",
      # The provider of their last attempt.
      provider: "optional: String",
      # One message's recipients.
      email_id: "optional: String",
    }.freeze

    # Answered by POST /v1/deliveries/cancel, POST /v1/deliveries/release, POST /v1/deliveries/retry.
    BulkDeliveriesResponse = {
      object: '"bulk"',
      # Recipients of the filter the action applies to, those being attempted now included.
      matched: "Integer",
      # Those it changed.
      changed: "Integer",
    }.freeze

    # Answered by POST /v1/emails/{id}/cancel.
    CancelEmailResponse = {
      object: '"email"',
      id: "String (uuid)",
      status: '"canceled"',
    }.freeze

    # A contact's value of one property, with the property's type.
    ContactPropertyValue = {
      type: "one of string, number",
      value: "String or Float",
    }.freeze

    # A contact of the organisation: one per address. Answered by GET /v1/audiences/{id}/contacts, POST
    # /v1/audiences/{id}/contacts, GET /v1/audiences/{id}/contacts/{contact}, PATCH
    # /v1/audiences/{id}/contacts/{contact}, GET /v1/contacts, POST /v1/contacts, GET /v1/contacts/{id}, PATCH
    # /v1/contacts/{id}, GET /v1/segments/{id}/contacts.
    Contact = {
      object: '"contact"',
      id: "String (uuid)",
      email: "String",
      first_name: "String or nil",
      last_name: "String or nil",
      # Out of every broadcast and every topic.
      unsubscribed: "true or false",
      created_at: "String (date-time)",
      updated_at: "String (date-time)",
      # Each property's value, or its fallback where the contact has none (get only).
      properties: "optional: Hash of ContactPropertyValue",
    }.freeze

    ContactImportCounts = {
      total: "Integer",
      created: "Integer",
      updated: "Integer",
      skipped: "Integer",
      failed: "Integer",
    }.freeze

    ContactImportError = {
      line: "Integer",
      message: "String",
    }.freeze

    # A CSV import of contacts and its live counts. Answered by GET /v1/contacts/imports, GET /v1/contacts/imports/{id}.
    ContactImport = {
      object: '"contact_import"',
      id: "String (uuid)",
      status: "one of queued, in_progress, completed, failed",
      created_at: "String (date-time)",
      completed_at: "String (date-time) or nil",
      counts: "ContactImportCounts",
      # The first lines that failed, each with its line number in the file.
      errors: "Array of ContactImportError",
      # Why the whole import failed (status failed).
      error: "String or nil",
    }.freeze

    # A property contacts may carry; a value must match its type. Answered by GET /v1/contact-properties, POST
    # /v1/contact-properties, GET /v1/contact-properties/{id}, PATCH /v1/contact-properties/{id}.
    ContactProperty = {
      object: '"contact_property"',
      id: "String (uuid)",
      key: "String",
      type: "one of string, number",
      fallback_value: "String or Float or nil",
      created_at: "String (date-time)",
    }.freeze

    # A topic with one contact's effective subscription. Answered by GET /v1/contacts/{id}/topics.
    ContactTopic = {
      id: "String (uuid)",
      name: "String",
      description: "String or nil",
      # The contact's effective choice.
      subscription: "one of opt_in, opt_out",
    }.freeze

    # Sent to POST /v1/api-keys.
    CreateApiKeyOptions = {
      name: "String",
      # Resend's presets (default full_access).
      permission: "optional: one of full_access, sending_access",
      # Restrict sending to this domain (id or name).
      domain_id: "optional: String",
      # Fine-grained scopes instead of permission.
      scopes: "optional: Array of String",
      mode: "optional: one of live, test",
      # Restrict sending to these domains.
      domains: "optional: Array of String",
      # Requests per minute for this key.
      rate_limit: "optional: Integer",
      # Earlier name of rate_limit.
      rate_limit_per_minute: "optional: Integer",
      # Messages per UTC day this key may send.
      daily_quota: "optional: Integer",
    }.freeze

    # Answered by POST /v1/api-keys.
    CreateApiKeyResponse = {
      object: '"api_key"',
      id: "String (uuid)",
      name: "String",
      # test keys send into the sandbox only.
      mode: "one of live, test",
      # The first characters of the key, enough to recognise it, never enough to use it.
      token_prefix: "String",
      scopes: "Array of one of emails:send, emails:read, domains:read, domains:write, templates:read, " \
              "templates:write, webhooks:read, webhooks:write, suppressions:read, suppressions:write, inbound:read, " \
              "api_keys:read, api_keys:write, ai:use, deliveries:read, deliveries:write, organization:read, " \
              "organization:write, members:read, members:write, audit:read, contacts:read, contacts:write, logs:read",
      # The sending domains it is restricted to; null: any.
      domains: "Array of String or nil",
      rate_limit_per_minute: "Integer or nil",
      # Messages per UTC day; null: none of its own.
      daily_quota: "Integer or nil",
      created_at: "String (date-time)",
      last_used_at: "String (date-time) or nil",
      revoked_at: "String (date-time) or nil",
      # The full key: shown in this answer only.
      token: "String",
    }.freeze

    CreateBatchResponseData = {
      id: "String (uuid)",
    }.freeze

    CreateBatchResponseError = {
      index: "Integer",
      message: "String",
    }.freeze

    # Answered by POST /v1/emails/batch.
    CreateBatchResponse = {
      # The messages sent, in order.
      data: "Array of CreateBatchResponseData",
      # Permissive batches: the messages refused, by their index.
      errors: "optional: Array of CreateBatchResponseError",
    }.freeze

    # A saved template in place of html and text, rendered once at send.
    CreateBroadcastOptionsTemplate = {
      # The template's id or alias (its published version is sent).
      id: "String",
      # The template's own variables.
      variables: "optional: Hash of any value",
    }.freeze

    # A broadcast to a segment. Sent to POST /v1/broadcasts.
    CreateBroadcastOptions = {
      name: "optional: String",
      # The segment whose contacts receive it.
      segment_id: "optional: String",
      # segment_id's older name.
      audience_id: "optional: String",
      from: "optional: String",
      subject: "optional: String",
      reply_to: "optional: String or Array of String",
      preview_text: "optional: String or nil",
      # May use {{{FIRST_NAME|fallback}}} and the other variables.
      html: "optional: String",
      text: "optional: String",
      # A saved template in place of html and text, rendered once at send.
      template: "optional: CreateBroadcastOptionsTemplate",
      topic_id: "optional: String or nil",
      # Send now (or at scheduled_at) instead of keeping a draft.
      send: "optional: true or false",
      # ISO 8601, or e.g. `in 2 hours`; with send: true.
      scheduled_at: "optional: String",
    }.freeze

    CreateContactOptionsSegment = {
      id: "String",
    }.freeze

    CreateContactOptionsTopic = {
      id: "String",
      subscription: "one of opt_in, opt_out",
    }.freeze

    # A new contact. Sent to POST /v1/audiences/{id}/contacts, POST /v1/contacts.
    CreateContactOptions = {
      email: "String",
      first_name: "optional: String or nil",
      last_name: "optional: String or nil",
      # Out of every broadcast and every topic.
      unsubscribed: "optional: true or false",
      # Values of defined contact properties, by key.
      properties: "optional: Hash of String or Float or nil",
      segments: "optional: Array of CreateContactOptionsSegment",
      # Topic choices, each `{id, subscription}`.
      topics: "optional: Array of CreateContactOptionsTopic",
    }.freeze

    # A property contacts may carry. Sent to POST /v1/contact-properties.
    CreateContactPropertyOptions = {
      # Letters, digits and underscores, starting with a letter.
      key: "String",
      type: "one of string, number",
      fallback_value: "optional: String or Float or nil",
    }.freeze

    # A member's role: owner everything; admin everything but owners and deleting the organisation; developer the mail
    # and its settings, no people; viewer reads.
    Role = %w[owner admin developer viewer].freeze

    # An invitation not yet accepted: the role its link grants, until `expires_at` (7 days after it was made).
    Invitation = {
      object: '"invitation"',
      id: "String (uuid)",
      email: "String",
      role: "Role",
      created_at: "String (date-time)",
      expires_at: "String (date-time)",
    }.freeze

    # A new invitation with its one-time link, `url`: when it was not mailed, the link is yours to hand over. Answered
    # by POST /v1/members/invitations.
    CreatedInvitation = {
      **Invitation,
      # The one-time link: never shown again.
      url: "String",
      # Whether the link was also mailed to the address invited.
      emailed: "true or false",
      # Why it was not mailed (no public address configured, no verified domain), when it was not.
      note: "String or nil",
    }.freeze

    # Resend's form: receiving enabled or disabled.
    CreateDomainOptionsCapabilities = {
      sending: 'optional: "enabled"',
      receiving: "optional: one of enabled, disabled",
    }.freeze

    CreateDomainOptionsDkim = {
      # Sign with an Ed25519 key (RFC 8463) beside the RSA one: adds its DKIM record; the signature is added once the
      # record is found.
      ed25519: "optional: true or false",
    }.freeze

    # Sent to POST /v1/domains.
    CreateDomainOptions = {
      # Domain name; Unicode names are stored as punycode.
      name: "String",
      # Subdomain for the return path and its SPF and MX records (default send).
      return_path_subdomain: "optional: String",
      # Track opens of mail from this domain by default.
      open_tracking: "optional: true or false",
      # Track clicks in mail from this domain by default.
      click_tracking: "optional: true or false",
      # Accept inbound mail for the domain (adds the Inbound MX record).
      receiving_enabled: "optional: true or false",
      # The same as receiving_enabled.
      receiving: "optional: true or false",
      # Names of the providers that take the domain's mail, first choice first; the next takes over while one fails.
      # Empty: [delivery] default_provider.
      providers: "optional: Array of String",
      # A label (links → links.<domain>): its CNAME to this server is added to the records, and once found the domain's
      # open, click and unsubscribe links use https://links.<domain>; null removes it.
      tracking_subdomain: "optional: String or nil",
      # enforced: direct MX delivery only over STARTTLS with a certificate valid for the MX name (MTA-STS or not);
      # otherwise deferred, then bounced with the reason.
      tls: "optional: one of opportunistic, enforced",
      # The [ip_pools.<name>] direct delivery of the domain's mail binds its source addresses from (with their warm-up);
      # null: the machine's default address.
      ip_pool: "optional: String or nil",
      dkim: "optional: CreateDomainOptionsDkim",
      # Resend's form: receiving enabled or disabled.
      capabilities: "optional: CreateDomainOptionsCapabilities",
    }.freeze

    # A new organisation; its creator is its owner. Answered by POST /v1/organizations.
    CreatedOrganization = {
      object: '"organization"',
      id: "String (uuid)",
      name: "String",
    }.freeze

    CreateEmailOptionsAttachment = {
      filename: "String",
      # base64; or give path.
      content: "optional: String",
      # an https URL fetched at acceptance instead of content (public addresses only, at most the message size limit).
      path: "optional: String",
      content_type: "optional: String",
      content_id: "optional: String",
    }.freeze

    CreateEmailOptionsTag = {
      name: "String",
      value: "String",
    }.freeze

    # Render a saved template; from, subject, html and text come from it unless given here.
    CreateEmailOptionsTemplate = {
      # Template id or alias (its published version).
      id: "String",
      variables: "optional: Hash of String or Float or nil or nil",
    }.freeze

    # Overrides the sending domain's tracking defaults.
    CreateEmailOptionsTracking = {
      opens: "optional: true or false",
      clicks: "optional: true or false",
    }.freeze

    # Sent to POST /functions/v1/send-email, POST /v1/emails, POST /v1/emails/batch.
    CreateEmailOptions = {
      # `addr` or `Display Name <addr>` on a verified domain; required unless the template gives it.
      from: "optional: String",
      to: "String or Array of String",
      cc: "optional: String or Array of String or nil",
      bcc: "optional: String or Array of String or nil",
      reply_to: "optional: String or Array of String or nil",
      "reply-to": "optional: String or Array of String or nil",
      # Required unless the template gives it.
      subject: "optional: String",
      html: "optional: String or nil",
      text: "optional: String or nil",
      headers: "optional: Hash of String or nil",
      attachments: "optional: Array of CreateEmailOptionsAttachment or nil",
      tags: "optional: Array of CreateEmailOptionsTag or nil",
      scheduled_at: "optional: String (date-time) or nil",
      tracking: "optional: CreateEmailOptionsTracking or nil",
      unsubscribe: "optional: true or false or nil",
      topic_id: "optional: String or nil",
      # Render a saved template; from, subject, html and text come from it unless given here.
      template: "optional: CreateEmailOptionsTemplate",
    }.freeze

    # Answered by POST /functions/v1/send-email, POST /v1/emails.
    CreateEmailResponse = {
      id: "String (uuid)",
      message: '"Email sent."',
    }.freeze

    # Matches when one of the message's header fields of this name contains the text.
    InboundRouteHeaderMatch = {
      # A header field's name.
      name: "String",
      # Text its value contains (any case).
      contains: "String",
    }.freeze

    # What the route matches; an empty match matches every message.
    CreateInboundRouteOptionsMatch = {
      recipient: "optional: String or nil",
      header: "optional: InboundRouteHeaderMatch or nil",
    }.freeze

    # Sent to POST /v1/inbound/routes.
    CreateInboundRouteOptions = {
      # What the route matches; an empty match matches every message.
      match: "optional: CreateInboundRouteOptionsMatch",
      # Where action forward sends a copy.
      forward_to: "optional: Array of String",
      # The webhooks action webhook notifies.
      webhook_ids: "optional: Array of String (uuid)",
      spam_threshold: "optional: Float or nil",
      # Where the route goes; those at it and after move down. Default: last.
      position: "optional: Integer",
      action: "one of store, webhook, forward, reject, drop",
    }.freeze

    # A segment. Sent to POST /v1/audiences, PATCH /v1/audiences/{id}, POST /v1/segments, PATCH /v1/segments/{id}.
    CreateSegmentOptions = {
      # The segment's name.
      name: "String",
    }.freeze

    CreateTemplateOptionsVariable = {
      key: "String",
      type: "one of string, number",
      fallback_value: "optional: String or Float or nil",
    }.freeze

    # Sent to POST /v1/templates.
    CreateTemplateOptions = {
      name: "String",
      # A second, stable name to send with.
      alias: "optional: String or nil",
      # How html is read (default: mjml when its root is <mjml>, else handlebars).
      engine: "optional: one of handlebars, mjml",
      subject: "optional: String or nil",
      from: "optional: String or nil",
      reply_to: "optional: String or Array of String or nil",
      html: "String",
      text: "optional: String or nil",
      variables: "optional: Array of CreateTemplateOptionsVariable",
    }.freeze

    # A new topic. Sent to POST /v1/topics.
    CreateTopicOptions = {
      # The topic's name.
      name: "String",
      description: "optional: String or nil",
      # What a contact who never chose receives (fixed once created).
      default_subscription: "one of opt_in, opt_out",
      visibility: "optional: one of public, private",
    }.freeze

    # Sent to POST /v1/webhooks.
    CreateWebhookOptions = {
      # An https URL on a public address.
      endpoint: "String",
      # Event types to receive, e.g. email.delivered.
      events: "Array of String",
      description: "optional: String or nil",
    }.freeze

    # Answered by GET /v1/api-keys/current.
    CurrentApiKey = {
      object: '"api_key"',
      # The calling key's id; null for a signed-in person.
      id: "String (uuid) or nil",
      # test keys send into the sandbox only.
      mode: "one of live, test",
      # The scopes it may use (a test key's within the sandbox).
      scopes: "Array of one of emails:send, emails:read, domains:read, domains:write, templates:read, " \
              "templates:write, webhooks:read, webhooks:write, suppressions:read, suppressions:write, inbound:read, " \
              "api_keys:read, api_keys:write, ai:use, deliveries:read, deliveries:write, organization:read, " \
              "organization:write, members:read, members:write, audit:read, contacts:read, contacts:write, logs:read",
      # The sending domains it is restricted to; null: any.
      domains: "Array of String or nil",
      # Whether it reads messages' html, text, raw and attachments (a viewer does not).
      reads_message_content: "true or false",
    }.freeze

    DaneDestination = {
      # The recipient domain.
      destination: "String",
      # The MX host negotiated with; empty when its MX lookup failed validation.
      mx_host: "String",
      # secure: DNSSEC-secure TLSA records; none: no secure TLSA records (unsigned, or none published); bogus: the TLSA
      # answer failed DNSSEC validation; unchecked: DANE was off.
      tlsa: "one of secure, none, bogus, unchecked",
      # The last negotiation: verified (the certificate matched a TLSA record), mismatched or bogus (deferred 4.7.5,
      # nothing sent), mta_sts or tls_policy (no secure TLSA records: the MTA-STS policy, or the domain's tls setting,
      # decided).
      outcome: "one of verified, mismatched, bogus, mta_sts, tls_policy",
      # RFC 8460's result type of that negotiation: success, tlsa-invalid, ….
      result: "String",
      last_at: "String (date-time)",
      # Negotiations with this host over the window.
      sessions: "Integer",
    }.freeze

    # Answered by GET /v1/deliveries, POST /v1/deliveries/{id}/cancel, POST /v1/deliveries/{id}/release, POST
    # /v1/deliveries/{id}/retry.
    Delivery = {
      object: '"delivery"',
      id: "String (uuid)",
      email_id: "String (uuid)",
      recipient: "String",
      # A recipient status, or sending while an attempt is under way.
      status: "one of queued, sent, delivered, deferred, bounced, complained, failed, suppressed, canceled, held, " \
              "sending",
      # The provider of the last attempt; null: not attempted yet.
      provider: "String or nil",
      attempts: "Integer",
      next_attempt_at: "String (date-time) or nil",
      # The last remote reply (or the operator's action).
      last_response: "String or nil",
      created_at: "String (date-time)",
      updated_at: "String (date-time)",
    }.freeze

    DmarcRow = {
      source_ip: "String",
      # Messages from that address the row counts.
      count: "Integer",
      # What the receiver did with them under the domain's policy.
      disposition: "one of none, quarantine, reject",
      # DKIM and SPF as DMARC evaluated them (aligned with the From domain).
      dkim: "one of pass, fail",
      spf: "one of pass, fail",
      header_from: "String",
    }.freeze

    # Answered by GET /v1/domains/{id}/dmarc.
    DmarcReport = {
      object: '"dmarc_report"',
      id: "String (uuid)",
      # The receiver's organisation, as it names itself (google.com, Yahoo, …).
      reporter: "String",
      # The receiver's id of the report.
      report_id: "String",
      # The period the report covers (ISO 8601, UTC).
      begin: "String",
      end: "String",
      # The report's first 20 rows at most, heaviest source first.
      rows: "Array of DmarcRow",
      # How many rows the report has: those past `rows` are read page by page.
      row_count: "Integer",
    }.freeze

    # Answered by GET /v1/domains/{id}/dmarc/{report_id}/rows.
    DmarcReportRow = {
      **DmarcRow,
      id: "String (uuid)",
    }.freeze

    DmarcSource = {
      source_ip: "String",
      messages: "Integer",
      # The share of messages (0–1) that passed DKIM or SPF aligned, so passed DMARC.
      aligned_pass_rate: "Float",
      # One of Mailroom's addresses (public_ips, or the domain's SPF at its return path passes for it).
      own: "true or false",
    }.freeze

    # Answered by GET /v1/domains/{id}/dmarc/summary.
    DmarcSummary = {
      object: '"dmarc_summary"',
      domain: "String",
      days: "Integer",
      # How many reports were summed (those of the last days, newest first).
      reports: "Integer",
      # Most messages first.
      data: "Array of DmarcSource",
    }.freeze

    # Resend's spelling of the same switches.
    DomainCapabilities = {
      sending: '"enabled"',
      receiving: "one of enabled, disabled",
    }.freeze

    DomainDkim = {
      # An Ed25519 signature is added beside the RSA one once its record is found (RFC 8463).
      ed25519: "true or false",
    }.freeze

    DomainHealth = {
      bounce_rate: "Float",
      complaint_rate: "Float",
      # The window, e.g. 24h.
      window: "String",
      # Recipients that ended in the window (since a resume, when later): what the rates divide by.
      recipients: "Integer",
      status: "one of ok, warning, paused",
      # Why the status is not ok, e.g. `bounce rate 9.1 % over 24 h`; null when ok.
      reason: "String or nil",
      # When the rates were measured; null before the first measurement.
      evaluated_at: "String (date-time) or nil",
      # Recipients that must end in the window before the rates are judged ([guardrails] min_recipients); below it the
      # status stays ok, not judged yet.
      min_recipients: "Integer",
    }.freeze

    DomainRecord = {
      record: "one of DKIM, SPF, MX, DMARC, Inbound, Tracking",
      name: "String",
      type: "one of TXT, MX, CNAME",
      value: "String",
      # MX preference.
      priority: "optional: Integer",
      ttl: '"Auto"',
      status: "one of not_started, pending, verified, failed, temporary_failure",
      # After a check: what DNS answered at the record's name (TXT values, or `priority host` for MX), to set beside
      # value; null when the lookup failed. Absent before the first check.
      found: "optional: Array of String or nil",
      # Why the record as shown cannot work yet: it names this machine because [server] hostname is unset.
      warning: "optional: String",
      # DKIM only: active signs now; next is a rotation's new key, taking over once its record is found.
      key_state: "optional: one of active, next",
    }.freeze

    # Answered by GET /v1/domains, POST /v1/domains, GET /v1/domains/{id}, PATCH /v1/domains/{id}, POST
    # /v1/domains/{id}/dkim/rotate, POST /v1/domains/{id}/override, POST /v1/domains/{id}/verify.
    Domain = {
      object: '"domain"',
      id: "String (uuid)",
      name: "String",
      status: "one of not_started, pending, verified, partially_verified, failed, temporary_failure",
      # The operator marked the domain verified without DNS checks (mailroom domains add --verified, or an instance
      # admin: POST /v1/domains/:id/override).
      verified_override: "true or false",
      open_tracking: "true or false",
      click_tracking: "true or false",
      return_path_subdomain: "String",
      receiving_enabled: "true or false",
      # The providers that take the domain's mail, in order (the next takes over while one fails); empty: the default.
      providers: "Array of String",
      # Resend's spelling of the same switches.
      capabilities: "DomainCapabilities",
      records: "Array of DomainRecord",
      dkim: "DomainDkim",
      # The label of the tracking host (links → links.<domain>), whose CNAME is among the records; null: none.
      tracking_subdomain: "String or nil",
      # enforced: direct MX delivery only over STARTTLS with a certificate valid for the MX name.
      tls: "one of opportunistic, enforced",
      # The [ip_pools.<name>] direct delivery sends from; null: the machine's default address.
      ip_pool: "String or nil",
      health: "DomainHealth",
      last_checked_at: "String (date-time) or nil",
      created_at: "String (date-time)",
      updated_at: "String (date-time)",
    }.freeze

    # Answered by GET /v1/domains/{id}/dane.
    DomainDane = {
      object: '"dane_status"',
      # Whether direct delivery checks TLSA records ([mx] dane).
      dane: "one of on, off",
      # The window: destinations the domain's mail went to in these last days.
      days: "Integer",
      # Most recently negotiated first.
      data: "Array of DaneDestination",
    }.freeze

    # Answered by DELETE /v1/domains/{id}.
    DomainDeleted = {
      object: '"domain"',
      id: "String",
      name: "String",
      deleted: "true",
    }.freeze

    DomainHealthEntry = {
      id: "String (uuid)",
      name: "String",
      health: "DomainHealth",
    }.freeze

    EmailEvent = {
      # email.queued, email.delivered, ….
      type: "String",
      created_at: "String (date-time)",
      recipient: "String or nil",
      data: "Hash of any value",
    }.freeze

    RecipientStatus = %w[queued sent delivered deferred bounced complained failed suppressed canceled held].freeze

    EmailRecipient = {
      email: "String",
      status: "RecipientStatus",
      attempts: "Integer",
      # The receiving server's last reply.
      last_response: "String or nil",
      # The provider of the last attempt (its name in the config).
      provider: "String or nil",
      # The id that provider gave the message.
      provider_message_id: "String or nil",
      updated_at: "String (date-time)",
    }.freeze

    # The last event.
    EmailStatus = %w[
      scheduled queued held sent delivered delivery_delayed bounced complained opened clicked unsubscribed failed
      suppressed canceled
    ].freeze

    Tag = {
      name: "String",
      value: "String",
    }.freeze

    # Answered by GET /functions/v1/send-email/{id}, GET /v1/emails/{id}.
    Email = {
      object: '"email"',
      id: "String (uuid)",
      message_id: "String",
      source: "one of api, smtp, cli, forward",
      from: "String",
      to: "Array of String",
      cc: "Array of String",
      bcc: "Array of String",
      reply_to: "Array of String",
      subject: "String",
      tags: "Array of Tag",
      status: "EmailStatus",
      last_event: "EmailStatus",
      created_at: "String (date-time)",
      scheduled_at: "String (date-time) or nil",
      template_id: "String or nil",
      # The topic it was sent for (docs/contacts-preferences.md).
      topic_id: "String or nil",
      # The broadcast it was sent for (docs/broadcasts.md).
      broadcast_id: "String or nil",
      # test: sent with a test key, into the sandbox (docs/keys-and-limits.md#test-keys-are-a-sandbox); live otherwise.
      mode: "one of live, test",
      html: "String or nil",
      text: "String or nil",
      # When retention removed the raw message, bodies and attachments; null while they are kept.
      content_removed_at: "String (date-time) or nil",
      recipients: "Array of EmailRecipient",
      events: "Array of EmailEvent",
    }.freeze

    # Answered by GET /v1/emails/{id}/attachments, GET /v1/emails/{id}/attachments/{attachment_id}, GET
    # /v1/emails/receiving/{id}/attachments, GET /v1/emails/receiving/{id}/attachments/{attachment_id}.
    EmailAttachment = {
      object: 'optional: "attachment"',
      id: "String (uuid)",
      filename: "String or nil",
      content_type: "String",
      content_disposition: "one of inline, attachment",
      content_id: "String or nil",
      # Bytes.
      size: "Integer",
      # Valid for an hour without an API key.
      download_url: "String",
      expires_at: "String (date-time)",
    }.freeze

    EmailMetricsRow = {
      # The period's start (UTC).
      period: "String (date-time)",
      received: "optional: Float",
      delivered: "optional: Float",
      complained: "optional: Float",
      suppressed: "optional: Float",
      bounced: "optional: Float",
      bounced_transient: "optional: Float",
      bounced_permanent: "optional: Float",
      bounced_undetermined: "optional: Float",
      opened: "optional: Float",
      clicked: "optional: Float",
      unsubscribed: "optional: Float",
      delivery_delayed: "optional: Float",
      failed: "optional: Float",
      sent: "optional: Float",
      unique_opened: "optional: Float",
      unique_clicked: "optional: Float",
      delivery_rate: "optional: Float",
      open_rate: "optional: Float",
      click_rate: "optional: Float",
      bounce_rate: "optional: Float",
      complaint_rate: "optional: Float",
      unsubscribe_rate: "optional: Float",
    }.freeze

    EmailMetricsTotals = {
      received: "optional: Float",
      delivered: "optional: Float",
      complained: "optional: Float",
      suppressed: "optional: Float",
      bounced: "optional: Float",
      bounced_transient: "optional: Float",
      bounced_permanent: "optional: Float",
      bounced_undetermined: "optional: Float",
      opened: "optional: Float",
      clicked: "optional: Float",
      unsubscribed: "optional: Float",
      delivery_delayed: "optional: Float",
      failed: "optional: Float",
      sent: "optional: Float",
      unique_opened: "optional: Float",
      unique_clicked: "optional: Float",
      delivery_rate: "optional: Float",
      open_rate: "optional: Float",
      click_rate: "optional: Float",
      bounce_rate: "optional: Float",
      complaint_rate: "optional: Float",
      unsubscribe_rate: "optional: Float",
    }.freeze

    # Answered by GET /v1/emails/metrics.
    EmailMetrics = {
      object: '"metrics"',
      start_date: "String (date-time)",
      end_date: "String (date-time)",
      metrics: "Array of one of received, delivered, complained, suppressed, bounced, bounced_transient, " \
               "bounced_permanent, bounced_undetermined, opened, clicked, unsubscribed, delivery_delayed, failed, " \
               "sent, unique_opened, unique_clicked, delivery_rate, open_rate, click_rate, bounce_rate, " \
               "complaint_rate, unsubscribe_rate",
      dimensions: "Array of one of period, domain, email, broadcast",
      granularity: "one of hourly, daily, weekly, monthly",
      totals: "EmailMetricsTotals",
      data: "optional: Array of EmailMetricsRow",
    }.freeze

    # `accepted` counts messages (email.queued, or the first email.scheduled); the others count recipients' events.
    EmailStatCounts = {
      accepted: "Integer",
      sent: "Integer",
      delivered: "Integer",
      delivery_delayed: "Integer",
      bounced: "Integer",
      complained: "Integer",
      failed: "Integer",
      suppressed: "Integer",
    }.freeze

    EmailStatsBucket = {
      start: "String (date-time)",
      accepted: "Integer",
      sent: "Integer",
      delivered: "Integer",
      delivery_delayed: "Integer",
      bounced: "Integer",
      complained: "Integer",
      failed: "Integer",
      suppressed: "Integer",
    }.freeze

    # Answered by GET /v1/emails/stats.
    EmailStats = {
      object: '"email_stats"',
      interval: "one of hour, day",
      from: "String (date-time)",
      to: "String (date-time)",
      buckets: "Array of EmailStatsBucket",
      totals: "EmailStatCounts",
    }.freeze

    # Answered by GET /v1/emails.
    EmailSummary = {
      object: '"email"',
      id: "String (uuid)",
      message_id: "String",
      source: "one of api, smtp, cli, forward",
      from: "String",
      to: "Array of String",
      cc: "Array of String",
      bcc: "Array of String",
      reply_to: "Array of String",
      subject: "String",
      tags: "Array of Tag",
      status: "EmailStatus",
      last_event: "EmailStatus",
      created_at: "String (date-time)",
      scheduled_at: "String (date-time) or nil",
      template_id: "String or nil",
      # The topic it was sent for (docs/contacts-preferences.md).
      topic_id: "String or nil",
      # The broadcast it was sent for (docs/broadcasts.md).
      broadcast_id: "String or nil",
      # test: sent with a test key, into the sandbox (docs/keys-and-limits.md#test-keys-are-a-sandbox); live otherwise.
      mode: "one of live, test",
    }.freeze

    ErrorBodyDetail = {
      path: "String",
      message: "String",
    }.freeze

    ErrorBody = {
      # The HTTP reason phrase.
      error: "String",
      # What went wrong, from the one error table.
      name: "one of validation_error, invalid_idempotency_key, unauthorized, insufficient_scope, not_found, " \
            "method_not_allowed, invalid_idempotent_request, concurrent_idempotent_requests, conflict, " \
            "payload_too_large, domain_not_verified, rate_limit_exceeded, daily_quota_exceeded, gone, " \
            "internal_error, service_unavailable",
      message: "String",
      statusCode: "Integer",
      details: "optional: Array of ErrorBodyDetail",
      request_id: "optional: String",
    }.freeze

    InboundRouteMatch = {
      recipient: "String or nil",
      header: "InboundRouteHeaderMatch or nil",
    }.freeze

    # A rule for the organisation's received mail. Answered by GET /v1/inbound/routes, POST /v1/inbound/routes, GET
    # /v1/inbound/routes/{id}, PATCH /v1/inbound/routes/{id}.
    InboundRoute = {
      object: '"inbound_route"',
      id: "String (uuid)",
      # Routes are tried from position 1 up; the first match decides.
      position: "Integer",
      match: "InboundRouteMatch",
      # store (the default), webhook (store; email.received only to webhook_ids), forward (store and forward), reject
      # (550 5.7.1) or drop (accept, store nothing).
      action: "one of store, webhook, forward, reject, drop",
      forward_to: "Array of String",
      webhook_ids: "Array of String",
      # rspamd score at or over which the message is refused.
      spam_threshold: "Float or nil",
      created_at: "String (date-time)",
      updated_at: "String (date-time)",
    }.freeze

    # Answered by POST /v1/inbound/routes/test.
    InboundRouteTest = {
      object: '"inbound_route_test"',
      recipient: "String",
      # Whether the MX takes mail for this address for the organisation.
      receiving: "true or false",
      # The route that decides; null: none matches.
      route: "InboundRoute or nil",
      # What becomes of the message (store when no route matches).
      action: "one of store, webhook, forward, reject, drop",
    }.freeze

    # The organisation it joins.
    InvitationPreviewOrganization = {
      name: "String",
    }.freeze

    # An open invitation as its link's holder sees it: the organisation, the role and the address. Answered by POST
    # /v1/invitations/preview.
    InvitationPreview = {
      object: '"invitation_preview"',
      # The address invited: only this account may join with it.
      email: "String",
      role: "Role",
      # The organisation it joins.
      organization: "InvitationPreviewOrganization",
      expires_at: "String (date-time)",
    }.freeze

    # An invitation to make: an API key may grant every role but owner (only owners make owners). Sent to POST
    # /v1/members/invitations.
    InviteMemberOptions = {
      # The address the link is for; stored lower-cased.
      email: "String",
      role: "Role",
    }.freeze

    IpPoolBackOff = {
      # The destination provider (gmail, outlook, yahoo, a [shaping.<provider>], or other).
      provider: "String",
      # The rate in force now, per minute.
      messages_per_minute: "Integer",
      # When the rate returns to the configured one.
      until: "String (date-time)",
    }.freeze

    IpPoolAddress = {
      address: "String",
      # The EHLO name it greets with (its PTR name); null: [mx] ehlo_name.
      ehlo_name: "String or nil",
      # Day of warm-up (1 = the day it first sent); null before it sent, or once warm-up is over.
      warmup_day: "Integer or nil",
      # Today's cap per provider while warming up; null: uncapped.
      daily_cap: "Integer or nil",
      # Messages delivered today (UTC), per destination provider.
      today: "Hash of Integer",
      # Providers whose rate is halved now, with the rate in force and until when.
      backed_off: "Array of IpPoolBackOff",
    }.freeze

    # Answered by GET /v1/ip-pools.
    IpPool = {
      name: "String",
      # How long an address warms up from its first use, e.g. 30d (0d: none).
      warmup: "String",
      addresses: "Array of IpPoolAddress",
    }.freeze

    # Answered by GET /v1/logs/{id}.
    Log = {
      object: '"log"',
      id: "String (uuid)",
      created_at: "String (date-time)",
      # The path, as Resend's: /emails/<id> (no /v1).
      endpoint: "String",
      method: "String",
      response_status: "Integer",
      user_agent: "String or nil",
      api_key_id: "String or nil",
      # The JSON body sent, secrets replaced by "[redacted]"; null without one.
      request_body: "any value",
      # The JSON answer, secrets replaced by "[redacted]"; null when not JSON.
      response_body: "any value",
    }.freeze

    LogListItem = {
      id: "String (uuid)",
      created_at: "String (date-time)",
      # The path, as Resend's: /emails/<id> (no /v1).
      endpoint: "String",
      method: "String",
      response_status: "Integer",
      user_agent: "String or nil",
      api_key_id: "String or nil",
    }.freeze

    # Answered by GET /v1/logs.
    LogList = {
      object: '"list"',
      has_more: "true or false",
      data: "Array of LogListItem",
      # [retention] logs in days: entries older than this are removed.
      retention_days: "Float",
      # Whether requests are recorded now ([http] request_log).
      recording: "true or false",
    }.freeze

    # A person who belongs to the organisation; `id` is the person's (a user id), as changing a role and removing take
    # it. Answered by PATCH /v1/members/{id}.
    Member = {
      object: '"member"',
      # The person's id.
      id: "String (uuid)",
      email: "String",
      name: "String",
      role: "Role",
      # When they joined the organisation.
      created_at: "String (date-time)",
    }.freeze

    # A page of members (oldest first), and every pending invitation. Answered by GET /v1/members.
    MemberList = {
      object: '"list"',
      has_more: "true or false",
      data: "Array of Member",
      # Every pending invitation, without its link.
      invitations: "Array of Invitation",
    }.freeze

    # An organisation the signed-in person belongs to, with their role there.
    Membership = {
      id: "String (uuid)",
      name: "String",
      role: "Role",
    }.freeze

    OrganizationRetention = {
      content_days: "Float",
      metadata_days: "Float",
    }.freeze

    OrganizationStorage = {
      messages: "Integer",
      content_bytes: "Integer",
      measured_at: "String (date-time)",
    }.freeze

    # Answered by GET /v1/organization, PATCH /v1/organization.
    Organization = {
      object: '"organization"',
      id: "String (uuid)",
      name: "String",
      # Requests per minute, all keys together: the organisation's own or the configured default.
      rate_limit: "Integer",
      # Live messages per UTC day; null: none.
      daily_quota: "Integer or nil",
      # Live messages accepted since 00:00 UTC.
      usage_today: "Integer",
      retention: "OrganizationRetention",
      # Sending of the whole organisation is paused (GET /v1/sending lists every pause).
      paused: "true or false",
      # Null until the retention job has counted once.
      storage: "OrganizationStorage or nil",
      created_at: "String (date-time)",
    }.freeze

    # An organisation the caller acts in, with the caller's role there (an API key: its own organisation). Answered by
    # GET /v1/organizations.
    OrganizationMembership = {
      object: '"organization"',
      id: "String",
      name: "String",
      role: "Role",
    }.freeze

    # What is paused: the organisation, one sending domain, one provider, or one lane (transactional, broadcast).
    PauseScope = %w[organization domain provider lane].freeze

    # Sent to POST /v1/sending/pause.
    PauseSendingOptions = {
      scope: "PauseScope",
      # The domain, provider or lane — transactional or broadcast (none for the organisation).
      name: "optional: String",
      # For the record.
      reason: "optional: String or nil",
    }.freeze

    QueueDomainCounts = {
      domain: "String",
      queued: "Integer",
      deferred: "Integer",
      held: "Integer",
      sending: "Integer",
      # When the oldest of them was queued.
      oldest_at: "String (date-time) or nil",
    }.freeze

    QueueLaneCounts = {
      lane: "one of transactional, broadcast",
      queued: "Integer",
      deferred: "Integer",
      held: "Integer",
      sending: "Integer",
      # When the oldest of them was queued.
      oldest_at: "String (date-time) or nil",
    }.freeze

    QueueProviderCounts = {
      # The provider of the last attempt; null: not attempted yet.
      provider: "String or nil",
      queued: "Integer",
      deferred: "Integer",
      held: "Integer",
      sending: "Integer",
      # When the oldest of them was queued.
      oldest_at: "String (date-time) or nil",
    }.freeze

    QueueStatusCounts = {
      queued: "Integer",
      deferred: "Integer",
      held: "Integer",
      sending: "Integer",
    }.freeze

    # Answered by GET /v1/deliveries/summary.
    QueueSummary = {
      object: '"queue_summary"',
      by_status: "QueueStatusCounts",
      # The 20 domains with the most recipients waiting.
      by_domain: "Array of QueueDomainCounts",
      by_provider: "Array of QueueProviderCounts",
      # Each sending lane: transactional, then broadcast (docs/operations.md#sending-lanes).
      by_lane: "Array of QueueLaneCounts",
      # When the oldest waiting recipient was queued.
      oldest_waiting_at: "String (date-time) or nil",
    }.freeze

    ReceivedAttachment = {
      id: "String (uuid)",
      filename: "String or nil",
      content_type: "String",
      content_disposition: "one of inline, attachment",
      content_id: "String or nil",
      # Bytes.
      size: "Integer",
    }.freeze

    ReceivedEmailAuthenticationArc = {
      result: "String",
    }.freeze

    ReceivedEmailAuthenticationDkim = {
      result: "String",
      domain: "String or nil",
      selector: "String or nil",
      aligned: "true or false",
    }.freeze

    ReceivedEmailAuthenticationDmarc = {
      result: "String",
      policy: "String or nil",
      domain: "String or nil",
    }.freeze

    ReceivedEmailAuthenticationSpf = {
      result: "String",
      domain: "String or nil",
    }.freeze

    ReceivedEmailAuthentication = {
      spf: "ReceivedEmailAuthenticationSpf or nil",
      dkim: "Array of ReceivedEmailAuthenticationDkim",
      dmarc: "ReceivedEmailAuthenticationDmarc or nil",
      arc: "ReceivedEmailAuthenticationArc or nil",
      header: "String",
    }.freeze

    # The raw message's signed link.
    ReceivedEmailRaw = {
      # The message as it arrived; valid for an hour without an API key.
      download_url: "String",
      expires_at: "String (date-time)",
    }.freeze

    ReceivedEmailSpamSymbol = {
      name: "String",
      score: "Float",
    }.freeze

    ReceivedEmailSpam = {
      score: "Float",
      # rspamd's action: no action, greylist, add header, rewrite subject, soft reject, reject.
      action: "String",
      # The rules that fired, highest first.
      symbols: "Array of ReceivedEmailSpamSymbol",
    }.freeze

    # Answered by GET /v1/emails/receiving/{id}.
    ReceivedEmail = {
      object: '"email"',
      id: "String (uuid)",
      to: "Array of String",
      from: "String",
      created_at: "String (date-time)",
      subject: "String",
      bcc: "Array of String or nil",
      cc: "Array of String or nil",
      reply_to: "Array of String or nil",
      # The envelope recipients of this organisation (RCPT TO).
      received_for: "Array of String",
      message_id: "String or nil",
      attachments: "Array of ReceivedAttachment",
      # The sent email this one answers (In-Reply-To / References).
      in_reply_to_email_id: "String or nil",
      auto_reply: "one of auto_reply, challenge_response or nil",
      authentication: "ReceivedEmailAuthentication",
      # rspamd's verdict; null when none is configured or it did not answer in time.
      spam: "ReceivedEmailSpam or nil",
      # The inbound route that decided; null: none matched (stored).
      route_id: "String or nil",
      html: "String or nil",
      text: "String or nil",
      headers: "Hash of String",
      # The raw message's signed link.
      raw: "ReceivedEmailRaw",
    }.freeze

    # Answered by GET /v1/emails/receiving.
    ReceivedEmailSummary = {
      id: "String (uuid)",
      to: "Array of String",
      from: "String",
      created_at: "String (date-time)",
      subject: "String",
      bcc: "Array of String or nil",
      cc: "Array of String or nil",
      reply_to: "Array of String or nil",
      # The envelope recipients of this organisation (RCPT TO).
      received_for: "Array of String",
      message_id: "String or nil",
      attachments: "Array of ReceivedAttachment",
      # The sent email this one answers (In-Reply-To / References).
      in_reply_to_email_id: "String or nil",
      auto_reply: "one of auto_reply, challenge_response or nil",
      authentication: "ReceivedEmailAuthentication",
      # rspamd's verdict; null when none is configured or it did not answer in time.
      spam: "ReceivedEmailSpam or nil",
      # The inbound route that decided; null: none matched (stored).
      route_id: "String or nil",
    }.freeze

    # One address or id of a batch removal: found and removed, or not on the list (`deleted: false`, and the part not
    # given null). Answered by POST /v1/suppressions/batch/remove.
    RemovedSuppression = {
      object: '"suppression"',
      id: "String or nil",
      email: "String or nil",
      deleted: "true or false",
    }.freeze

    # Answered by POST /v1/templates/{id}/render.
    RenderedTemplate = {
      subject: "String or nil",
      html: "String",
      text: "String",
    }.freeze

    # Sent to POST /v1/templates/{id}/render.
    RenderTemplateOptions = {
      # Values of the template's variables: strings and numbers.
      variables: "optional: Hash of String or Float or nil",
    }.freeze

    # Answered by POST /v1/webhooks/{id}/replay.
    ReplayFailedResponse = {
      object: '"replay"',
      webhook_id: "String (uuid)",
      # How many failed events are due again.
      replayed: "Integer",
    }.freeze

    # Sent to POST /v1/sending/resume.
    ResumeSendingOptions = {
      scope: "PauseScope",
      # The domain, provider or lane — transactional or broadcast (none for the organisation).
      name: "optional: String",
    }.freeze

    # A named group of contacts (Resend's audience). Answered by GET /v1/audiences, POST /v1/audiences, GET
    # /v1/audiences/{id}, PATCH /v1/audiences/{id}, GET /v1/contacts/{id}/segments, GET /v1/segments, POST /v1/segments,
    # GET /v1/segments/{id}, PATCH /v1/segments/{id}.
    Segment = {
      object: '"segment"',
      id: "String (uuid)",
      name: "String",
      created_at: "String (date-time)",
    }.freeze

    # Mailroom's extra: how many contacts a segment holds (docs/contacts.md#tables). Answered by GET
    # /v1/segments/{id}/count.
    SegmentCount = {
      object: '"segment_count"',
      segment_id: "String (uuid)",
      # Contacts in the segment now, unsubscribed and suppressed ones included.
      contacts: "Integer",
    }.freeze

    # Sent to POST /v1/broadcasts/{id}/send.
    SendBroadcastOptions = {
      # ISO 8601, or e.g. `in 2 hours`; absent: now.
      scheduled_at: "optional: String",
    }.freeze

    # Answered by GET /v1/sending/health.
    SendingHealthOverview = {
      object: '"sending_health"',
      health: "DomainHealth",
      domains: "Array of DomainHealthEntry",
      # Listed ones first; empty without [deliverability] dnsbl.
      blocklists: "Array of BlocklistListing",
    }.freeze

    SendingPause = {
      scope: "PauseScope",
      # The domain, provider or lane; null for the organisation.
      name: "String or nil",
      reason: "String or nil",
      paused_at: "String (date-time)",
      # The key that paused (its id), operator for the command line, or system for a guardrail.
      paused_by: "String or nil",
    }.freeze

    # Answered by POST /v1/sending/resume.
    SendingResumed = {
      object: '"sending"',
      pauses: "Array of SendingPause",
      # Held recipients that went back to the queue.
      released: "Integer",
    }.freeze

    # Answered by GET /v1/sending, POST /v1/sending/pause.
    SendingState = {
      object: '"sending"',
      pauses: "Array of SendingPause",
    }.freeze

    # A person with an account: signs in to the admin UI and belongs to organisations.
    User = {
      object: '"user"',
      id: "String (uuid)",
      email: "String",
      name: "String",
      # May create organisations.
      instance_admin: "true or false",
      # Sign-in with a password also asks for an authenticator app's code.
      totp_enabled: "true or false",
      created_at: "String (date-time)",
    }.freeze

    # The signed-in person and the organisations they belong to. Answered by POST /v1/invitations/accept, GET /v1/me,
    # POST /v1/session, POST /v1/setup.
    Session = {
      object: '"session"',
      user: "User",
      organizations: "Array of Membership",
    }.freeze

    # Whether this browser is signed in: the person, or `user: null` (never a 401). Answered by GET /v1/session.
    SessionState = {
      object: '"session"',
      user: "User or nil",
      organizations: "Array of Membership",
    }.freeze

    # SubscribeURL and Token are required of confirmations.
    SnsMessage = {
      Type: "one of Notification, SubscriptionConfirmation, UnsubscribeConfirmation",
      MessageId: "String",
      # One of [sns] topics.
      TopicArn: "String",
      Subject: "optional: String or nil",
      # For a notification, the SES event record as JSON.
      Message: "String",
      Timestamp: "String (date-time)",
      # 1: SHA1withRSA, 2: SHA256withRSA.
      SignatureVersion: "one of 1, 2",
      Signature: "String",
      # https on the SNS host of the topic's region.
      SigningCertURL: "String",
      # Confirmations: visiting it confirms the subscription.
      SubscribeURL: "optional: String",
      # Confirmations.
      Token: "optional: String",
      UnsubscribeURL: "optional: String or nil",
    }.freeze

    # Answered by POST /v1/providers/ses/sns.
    SnsReceipt = {
      type: "one of Notification, SubscriptionConfirmation, UnsubscribeConfirmation",
      # A notification: whether it changed a delivery (false: repeated, unknown message, or an event Mailroom ignores).
      applied: "optional: true or false",
    }.freeze

    SubjectFinding = {
      # The rule's stable dotted id, e.g. length.too_long.
      rule: "String",
      severity: "one of error, warning, info",
      message: "String",
      # What to change.
      fix: "String",
    }.freeze

    # Sent to POST /v1/ai/subject.
    SubjectOptions = {
      subject: "String",
      html: "optional: String or nil",
      text: "optional: String or nil",
    }.freeze

    SubjectScore = {
      subject: "String",
      score: "Integer",
      findings: "Array of SubjectFinding",
    }.freeze

    # Answered by POST /v1/ai/subject.
    SubjectResponse = {
      score: "Integer",
      findings: "Array of SubjectFinding",
      # Better subjects from the model, best first; empty without one.
      suggestions: "Array of SubjectScore",
      # Why there are no suggestions, when the model is not configured or failed.
      suggestions_unavailable: "optional: String",
      prompt_version: "String",
    }.freeze

    # An address on the organisation's suppression list: no message is delivered to it. Answered by GET
    # /v1/suppressions, POST /v1/suppressions, GET /v1/suppressions/{id}, POST /v1/suppressions/batch/add.
    Suppression = {
      object: '"suppression"',
      id: "String (uuid)",
      email: "String",
      # What put the address on the list.
      origin: "one of bounce, complaint, unsubscribe, manual",
      # The message or event that did (a bounce's, a complaint's).
      source_id: "String or nil",
      reason: "String or nil",
      created_at: "String (date-time)",
    }.freeze

    TemplateVariable = {
      key: "String",
      type: "one of string, number",
      # Used when a send gives none.
      fallback_value: "String or Float or nil",
      created_at: "String (date-time)",
      updated_at: "String (date-time)",
    }.freeze

    # Answered by GET /v1/templates/{id}.
    Template = {
      object: '"template"',
      id: "String (uuid)",
      name: "String",
      alias: "String or nil",
      # How html is read: Handlebars, or MJML with Handlebars.
      engine: "one of handlebars, mjml",
      # published once a version was published.
      status: "one of draft, published",
      subject: "String or nil",
      from: "String or nil",
      reply_to: "Array of String or nil",
      html: "String",
      text: "String or nil",
      variables: "Array of TemplateVariable",
      published_at: "String (date-time) or nil",
      created_at: "String (date-time)",
      updated_at: "String (date-time)",
      # The current version is not the published one.
      has_unpublished_versions: "true or false",
      # The version get shows and an update replaces.
      current_version_id: "String",
    }.freeze

    # Answered by POST /v1/templates, PATCH /v1/templates/{id}, POST /v1/templates/{id}/duplicate, POST
    # /v1/templates/{id}/publish.
    TemplateResponse = {
      object: '"template"',
      id: "String (uuid)",
    }.freeze

    # Answered by GET /v1/templates.
    TemplateSummary = {
      id: "String (uuid)",
      name: "String",
      alias: "String or nil",
      # published once a version was published.
      status: "one of draft, published",
      published_at: "String (date-time) or nil",
      created_at: "String (date-time)",
      updated_at: "String (date-time)",
      # How html is read: Handlebars, or MJML with Handlebars.
      engine: "one of handlebars, mjml",
    }.freeze

    TemplateValidationError = {
      # html, subject or text.
      field: "String",
      line: "Integer",
      column: "Integer",
      message: "String",
    }.freeze

    # Answered by POST /v1/templates/validate.
    TemplateValidation = {
      valid: "true or false",
      errors: "Array of TemplateValidationError",
    }.freeze

    # Sent to POST /v1/inbound/routes/test.
    TestInboundRouteOptions = {
      recipient: "String",
      # Header fields of an imagined message, name → value.
      headers: "optional: Hash of String",
    }.freeze

    # Sent to POST /v1/webhooks/{id}/test.
    TestWebhookOptions = {
      # Event type of the sample (default email.sent).
      type: "optional: String",
    }.freeze

    # A kind of mail a contact may choose to receive or not. Answered by GET /v1/topics, POST /v1/topics, GET
    # /v1/topics/{id}, PATCH /v1/topics/{id}.
    Topic = {
      object: '"topic"',
      id: "String (uuid)",
      name: "String",
      description: "String or nil",
      # What a contact who never chose receives: opt_in receives, opt_out does not.
      default_subscription: "one of opt_in, opt_out",
      # public topics are shown on the preference page.
      visibility: "one of public, private",
      created_at: "String (date-time)",
      updated_at: "String (date-time)",
    }.freeze

    # Two-step sign-in begun: the secret for an authenticator app, on once a code of it is confirmed. Answered by POST
    # /v1/me/totp.
    TotpEnrolment = {
      object: '"totp_enrolment"',
      # The new secret, base32: type it into the app, or scan otpauth_url.
      secret: "String",
      otpauth_url: "String",
    }.freeze

    # Two-step sign-in off: a password alone signs in. Answered by POST /v1/me/totp/disable.
    TotpOff = {
      object: '"totp"',
      enabled: "false",
    }.freeze

    # Two-step sign-in on, with new recovery codes. Answered by POST /v1/me/totp/confirm, POST
    # /v1/me/totp/recovery-codes.
    TotpOn = {
      object: '"totp"',
      enabled: "true",
      # Shown this once: each signs in once without the app.
      recovery_codes: "Array of String",
    }.freeze

    # Sent to PATCH /v1/api-keys/{id}.
    UpdateApiKeyOptions = {
      name: "String",
    }.freeze

    # Answered by PATCH /v1/api-keys/{id}.
    UpdateApiKeyResponse = {
      object: '"api_key"',
      id: "String (uuid)",
    }.freeze

    # A saved template in place of html and text, rendered once at send.
    UpdateBroadcastOptionsTemplate = {
      # The template's id or alias (its published version is sent).
      id: "String",
      # The template's own variables.
      variables: "optional: Hash of any value",
    }.freeze

    # Changes to a draft. Sent to PATCH /v1/broadcasts/{id}.
    UpdateBroadcastOptions = {
      name: "optional: String",
      # The segment whose contacts receive it.
      segment_id: "optional: String",
      # segment_id's older name.
      audience_id: "optional: String",
      from: "optional: String",
      subject: "optional: String",
      reply_to: "optional: String or Array of String",
      preview_text: "optional: String or nil",
      # May use {{{FIRST_NAME|fallback}}} and the other variables.
      html: "optional: String",
      text: "optional: String",
      # A saved template in place of html and text, rendered once at send.
      template: "optional: UpdateBroadcastOptionsTemplate",
      topic_id: "optional: String or nil",
    }.freeze

    # Changes to a contact. Sent to PATCH /v1/audiences/{id}/contacts/{contact}, PATCH /v1/contacts/{id}.
    UpdateContactOptions = {
      first_name: "optional: String or nil",
      last_name: "optional: String or nil",
      unsubscribed: "optional: true or false",
      # Values to set, by key (null removes one).
      properties: "optional: Hash of String or Float or true or false or nil",
    }.freeze

    # A property's new fallback (its key and type cannot change). Sent to PATCH /v1/contact-properties/{id}.
    UpdateContactPropertyOptions = {
      fallback_value: "optional: String or Float or nil",
    }.freeze

    # Resend's form: receiving enabled or disabled.
    UpdateDomainOptionsCapabilities = {
      sending: 'optional: "enabled"',
      receiving: "optional: one of enabled, disabled",
    }.freeze

    UpdateDomainOptionsDkim = {
      # Sign with an Ed25519 key (RFC 8463) beside the RSA one: adds its DKIM record; the signature is added once the
      # record is found.
      ed25519: "optional: true or false",
    }.freeze

    # Sent to PATCH /v1/domains/{id}.
    UpdateDomainOptions = {
      # Subdomain for the return path and its SPF and MX records (default send).
      return_path_subdomain: "optional: String",
      # Track opens of mail from this domain by default.
      open_tracking: "optional: true or false",
      # Track clicks in mail from this domain by default.
      click_tracking: "optional: true or false",
      # Accept inbound mail for the domain (adds the Inbound MX record).
      receiving_enabled: "optional: true or false",
      # The same as receiving_enabled.
      receiving: "optional: true or false",
      # Names of the providers that take the domain's mail, first choice first; the next takes over while one fails.
      # Empty: [delivery] default_provider.
      providers: "optional: Array of String",
      # A label (links → links.<domain>): its CNAME to this server is added to the records, and once found the domain's
      # open, click and unsubscribe links use https://links.<domain>; null removes it.
      tracking_subdomain: "optional: String or nil",
      # enforced: direct MX delivery only over STARTTLS with a certificate valid for the MX name (MTA-STS or not);
      # otherwise deferred, then bounced with the reason.
      tls: "optional: one of opportunistic, enforced",
      # The [ip_pools.<name>] direct delivery of the domain's mail binds its source addresses from (with their warm-up);
      # null: the machine's default address.
      ip_pool: "optional: String or nil",
      dkim: "optional: UpdateDomainOptionsDkim",
      # Resend's form: receiving enabled or disabled.
      capabilities: "optional: UpdateDomainOptionsCapabilities",
    }.freeze

    # Sent to PATCH /v1/emails/{id}.
    UpdateEmailOptions = {
      scheduled_at: "String (date-time)",
    }.freeze

    # Answered by PATCH /v1/emails/{id}.
    UpdateEmailResponse = {
      object: '"email"',
      id: "String (uuid)",
    }.freeze

    # What the route matches; an empty match matches every message.
    UpdateInboundRouteOptionsMatch = {
      recipient: "optional: String or nil",
      header: "optional: InboundRouteHeaderMatch or nil",
    }.freeze

    # Sent to PATCH /v1/inbound/routes/{id}.
    UpdateInboundRouteOptions = {
      # What the route matches; an empty match matches every message.
      match: "optional: UpdateInboundRouteOptionsMatch",
      # Where action forward sends a copy.
      forward_to: "optional: Array of String",
      # The webhooks action webhook notifies.
      webhook_ids: "optional: Array of String (uuid)",
      spam_threshold: "optional: Float or nil",
      # Where the route goes; those at it and after move down. Default: last.
      position: "optional: Integer",
      action: "optional: one of store, webhook, forward, reject, drop",
    }.freeze

    # A member's new role. Sent to PATCH /v1/members/{id}.
    UpdateMemberRoleOptions = {
      role: "Role",
    }.freeze

    UpdateOrganizationOptionsRetention = {
      # Days before the content of a finished message is removed; null returns to the configured default.
      content_days: "optional: Integer or nil",
      # Days before a finished message's record and events are removed; null returns to the configured default.
      metadata_days: "optional: Integer or nil",
    }.freeze

    # Sent to PATCH /v1/organization.
    UpdateOrganizationOptions = {
      # 1 to 100 characters on one line.
      name: "optional: String",
      # Requests per minute, all keys together; null returns to the configured default.
      rate_limit: "optional: Integer or nil",
      # Live messages per UTC day; null: none.
      daily_quota: "optional: Integer or nil",
      retention: "optional: UpdateOrganizationOptionsRetention",
    }.freeze

    UpdateTemplateOptionsVariable = {
      key: "String",
      type: "one of string, number",
      fallback_value: "optional: String or Float or nil",
    }.freeze

    # Sent to PATCH /v1/templates/{id}.
    UpdateTemplateOptions = {
      name: "optional: String",
      # A second, stable name to send with.
      alias: "optional: String or nil",
      # How html is read (default: mjml when its root is <mjml>, else handlebars).
      engine: "optional: one of handlebars, mjml",
      subject: "optional: String or nil",
      from: "optional: String or nil",
      reply_to: "optional: String or Array of String or nil",
      html: "optional: String",
      text: "optional: String or nil",
      variables: "optional: Array of UpdateTemplateOptionsVariable",
    }.freeze

    # Changes to a topic (its default_subscription cannot change). Sent to PATCH /v1/topics/{id}.
    UpdateTopicOptions = {
      # Ignored (Resend's SDK sends it).
      id: "optional: String",
      # The topic's name.
      name: "optional: String",
      description: "optional: String or nil",
      visibility: "optional: one of public, private",
    }.freeze

    # Sent to PATCH /v1/webhooks/{id}.
    UpdateWebhookOptions = {
      endpoint: "optional: String",
      events: "optional: Array of String",
      description: "optional: String or nil",
      status: "optional: one of enabled, disabled",
    }.freeze

    UsageAiCredits = {
      used: "Integer",
      # Null: Mailroom sets no such limit.
      limit: "Integer or nil",
      next_increase_at: "String or nil",
    }.freeze

    UsageAutomationRuns = {
      used: "Integer",
      # Null: Mailroom sets no such limit.
      limit: "Integer or nil",
      resets_at: "String (date-time)",
    }.freeze

    UsageBroadcasts = {
      used: "Integer",
      limit: "any value or nil",
    }.freeze

    UsageContacts = {
      used: "Integer",
      # Null: Mailroom sets no such limit.
      limit: "Integer or nil",
    }.freeze

    UsageDomains = {
      used: "Integer",
      # Null: Mailroom sets no such limit.
      limit: "Integer or nil",
    }.freeze

    UsageEmailsDaily = {
      # Messages accepted (sent) in the period.
      used: "Integer",
      # Null: Mailroom sets no such limit.
      limit: "Integer or nil",
      sent: "Integer",
      received: "Integer",
      resets_at: "String (date-time)",
    }.freeze

    UsageEmailsMonthly = {
      # Messages accepted (sent) in the period.
      used: "Integer",
      # Null: Mailroom sets no such limit.
      limit: "Integer or nil",
      sent: "Integer",
      received: "Integer",
      resets_at: "String (date-time)",
    }.freeze

    UsageEmails = {
      daily: "UsageEmailsDaily",
      monthly: "UsageEmailsMonthly",
    }.freeze

    UsageRateLimit = {
      # Requests per window, the organisation's.
      limit: "Integer",
      # The window: 60s.
      duration: "String",
    }.freeze

    UsageSegments = {
      used: "Integer",
      # Null: Mailroom sets no such limit.
      limit: "Integer or nil",
    }.freeze

    # Answered by GET /v1/usage.
    Usage = {
      object: '"usage"',
      emails: "UsageEmails",
      contacts: "UsageContacts",
      segments: "UsageSegments",
      broadcasts: "UsageBroadcasts",
      ai_credits: "UsageAiCredits",
      automation_runs: "UsageAutomationRuns",
      domains: "UsageDomains",
      rate_limit: "UsageRateLimit",
    }.freeze

    # Sent to POST /v1/templates/validate.
    ValidateTemplateOptions = {
      # How html is read (default: mjml when its root is <mjml>, else handlebars).
      engine: "optional: one of handlebars, mjml",
      html: "String",
      subject: "optional: String",
      text: "optional: String",
    }.freeze

    # Answered by GET /v1/webhooks/{id}/events/{event_id}/attempts.
    WebhookAttempt = {
      object: '"webhook_attempt"',
      id: "String (uuid)",
      sent_at: "String (date-time)",
      # Null when no HTTP answer came (timeout, refused connection, refused address).
      http_status_code: "Integer or nil",
      # The first 1 KB of the endpoint's answer.
      response: "String or nil",
      error: "String or nil",
      duration_ms: "Integer",
    }.freeze

    # Answered by GET /v1/webhooks/{id}/events, POST /v1/webhooks/{id}/events/{event_id}/replay, POST
    # /v1/webhooks/{id}/test.
    WebhookDeliveryEvent = {
      object: '"webhook_event"',
      # The webhook-id header of every attempt of this event.
      id: "String (uuid)",
      webhook_id: "String (uuid)",
      # The event it carries; null for a test event.
      event_id: "String or nil",
      type: "String",
      status: "one of pending, attempting, success, failed",
      attempt_count: "Integer",
      next_attempt_at: "String (date-time) or nil",
      last_attempt_at: "String (date-time) or nil",
      last_status_code: "Integer or nil",
      last_error: "String or nil",
      created_at: "String (date-time)",
    }.freeze

    WebhookPayload = {
      type: "String",
      created_at: "String (date-time)",
      data: "Hash of any value",
    }.freeze

    # Answered by GET /v1/webhooks/{id}/events/{event_id}.
    WebhookDeliveryEventDetail = {
      **WebhookDeliveryEvent,
      payload: "WebhookPayload",
      # Every attempt, oldest first.
      attempts: "Array of WebhookAttempt",
    }.freeze

    # Answered by GET /v1/webhooks, GET /v1/webhooks/{id}, PATCH /v1/webhooks/{id}.
    WebhookEndpoint = {
      object: '"webhook"',
      id: "String (uuid)",
      # The https URL events are posted to.
      endpoint: "String",
      # The event types it receives.
      events: "Array of one of email.scheduled, email.queued, email.sent, email.delivered, email.delivery_delayed, " \
              "email.bounced, email.complained, email.opened, email.clicked, email.unsubscribed, email.failed, " \
              "email.suppressed, email.canceled, email.received, email.held, domain.created, domain.updated, " \
              "domain.deleted, suppression.added, suppression.removed, sending.paused, sending.resumed, " \
              "contact.created, contact.updated, contact.deleted, contact.topics.updated, topic.created, " \
              "topic.updated, topic.deleted",
      description: "String or nil",
      status: "one of enabled, disabled",
      # Why it was disabled (410 Gone, repeated failures, or by the user).
      disabled_reason: "String or nil",
      disabled_at: "String (date-time) or nil",
      created_at: "String (date-time)",
      updated_at: "String (date-time)",
    }.freeze

    # Answered by POST /v1/webhooks, POST /v1/webhooks/{id}/signing-secret/rotate.
    WebhookWithSecret = {
      **WebhookEndpoint,
      # `whsec_<base64 key>`: what a verifier takes.
      signing_secret: "String",
    }.freeze

    WriteOptionsSaveAsTemplate = {
      name: "String",
      alias: "optional: String or nil",
    }.freeze

    # Sent to POST /v1/ai/write.
    WriteOptions = {
      # What the email should say.
      brief: "String",
      tone: "optional: String or nil",
      audience: "optional: String or nil",
      # Default html.
      format: "optional: one of html, mjml",
      # Save the draft as a draft template.
      save_as_template: "optional: WriteOptionsSaveAsTemplate or false or nil",
    }.freeze

    # Answered by POST /v1/ai/write.
    WriteResponse = {
      object: '"draft"',
      subject: "String",
      html: "String",
      text: "String",
      engine: "one of handlebars, mjml",
      # The placeholders the draft uses: the variables a send fills.
      variables: "Array of String",
      # The draft template it was saved as, when asked.
      template_id: "String or nil",
      prompt_version: "String",
    }.freeze
  end
end
