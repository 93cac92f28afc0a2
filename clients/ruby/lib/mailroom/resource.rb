# frozen_string_literal: true

require "uri"

# What every resource shares: access to the transport and the small conversions between Ruby call shapes
# (hashes with symbol or string keys, ids inside or beside the params) and the wire.
module Mailroom
  class Resource
    def initialize(transport)
      @transport = transport
    end

    private

    # Named apart from the public get/remove/update that resources define after Resend's SDK.
    def http_get(path, query = nil)
      @transport.request(:get, path, query: query)
    end

    def http_post(path, body = nil, **options)
      @transport.request(:post, path, body: body, **options)
    end

    def http_patch(path, body)
      @transport.request(:patch, path, body: body)
    end

    def http_delete(path)
      @transport.request(:delete, path)
    end

    # A contact is reached by id or by address: "id", or Resend's { id: } / { contact_id: } / { email: }.
    def contact_ref(value)
      return value unless value.is_a?(Hash)

      params = symbolized(value)
      params[:id] || params[:contact_id] || params[:email] || raise(ArgumentError, "contact_id or email is required")
    end

    # One path segment: ids are UUIDs, but suppressions and templates also take addresses and aliases.
    def segment(value)
      raise ArgumentError, "an id is required" if value.nil? || value.to_s.empty?

      URI.encode_www_form_component(value.to_s).gsub("+", "%20")
    end

    # Params as the caller gave them, keys as symbols, so `"email_id"` and `:email_id` behave alike.
    def symbolized(params)
      raise ArgumentError, "expected a Hash, got #{params.class}" unless params.is_a?(Hash)

      params.transform_keys(&:to_sym)
    end

    # Splits an id out of the params (Resend's Ruby SDK passes it inside them) so it does not reach the body.
    def take_id(params, *keys)
      rest = symbolized(params)
      key = keys.find { |k| rest.key?(k) }
      raise ArgumentError, "#{keys.first} is required" unless key

      [rest.delete(key), rest]
    end

    # `update(id, params)` and Resend's `update(id_key: …, **params)` both work.
    def id_and_params(id_or_params, params, *keys)
      return [id_or_params, symbolized(params)] unless id_or_params.is_a?(Hash)

      take_id(id_or_params, *keys)
    end

    # Attachments take Resend's `{ email_id:, id: }` hash or two positional ids.
    def attachment_ids(email_id_or_params, attachment_id)
      return [email_id_or_params, attachment_id] unless email_id_or_params.is_a?(Hash)

      params = symbolized(email_id_or_params)
      [params[:email_id], params[:id] || params[:attachment_id]]
    end

    def query(params)
      symbolized(params || {})
    end
  end
end
