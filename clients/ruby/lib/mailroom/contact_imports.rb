# frozen_string_literal: true

require "json"
require "securerandom"

# CSV imports of contacts (docs/contacts.md#imports, Resend's contacts.imports): the upload, sent as
# multipart/form-data as Resend's API takes it, then the import's status and live counts, and the list of imports.
module Mailroom
  class ContactImports < Resource
    # POST /v1/contacts/imports → { object: "contact_import", id: }. params: file (the CSV as a String, or an IO),
    # filename, column_map (Hash: which column holds email, first_name, last_name, unsubscribed and properties),
    # on_conflict ("upsert", the default, or "skip"), segments (ids, or [{ id: }]), topics ([{ id:, subscription: }]).
    # The server reads the file in the background: get shows its progress.
    def create(params)
      fields = symbolized(params)
      file = fields.delete(:file)
      raise ArgumentError, "file is required" if file.nil?

      content = file.respond_to?(:read) ? file.read : file.to_s
      boundary = "mailroom-ruby-#{SecureRandom.hex(16)}"
      body = form(boundary, fields, content)
      @transport.request(:post, "/contacts/imports", raw: body,
                                                     headers: { "Content-Type" => "multipart/form-data; boundary=#{boundary}" })
    end

    # GET /v1/contacts/imports/:id → Types::ContactImport: status, counts and the first failed lines.
    def get(import_id)
      http_get("/contacts/imports/#{segment(import_id)}")
    end

    # GET /v1/contacts/imports → { object: "list", has_more:, data: [Types::ContactImport] }. params: limit, after,
    # before, status (queued, in_progress, completed, failed).
    def list(params = {})
      http_get("/contacts/imports", query(params))
    end

    private

    # The options as JSON fields first, then the file (RFC 7578).
    def form(boundary, fields, content)
      filename = (fields.delete(:filename) || "contacts.csv").to_s.gsub(/["\r\n]/, "_")
      segments = fields[:segments]
      fields[:segments] = segments.map { |s| s.is_a?(Hash) ? s : { id: s } } if segments.is_a?(Array)
      # Only the fields the API reads: a name from the caller never reaches a part's header.
      parts = fields.slice(:column_map, :on_conflict, :segments, :topics).compact.map do |name, value|
        # A String is sent as it is: on_conflict, or a field the caller encoded as JSON already (as Resend's SDK allows).
        text = value.is_a?(String) ? value : JSON.generate(value)
        "--#{boundary}\r\nContent-Disposition: form-data; name=\"#{name}\"\r\n\r\n#{text}\r\n"
      end
      parts << "--#{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"#{filename}\"\r\n" \
               "Content-Type: text/csv\r\n\r\n"
      (parts.join.b + content.b + "\r\n--#{boundary}--\r\n".b)
    end
  end
end
