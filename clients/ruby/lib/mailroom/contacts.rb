# frozen_string_literal: true

# Contacts (docs/contacts.md, Resend's contacts API): one per address in the organisation, reached by id or by address
# ("contact" below: either, or Resend's { id: } / { email: } hash); the segments a contact is in (contacts.segments)
# and its topic choices (contacts.topics). CSV imports are contacts.imports (contact_imports.rb).
module Mailroom
  class Contacts < Resource
    attr_reader :segments, :topics, :imports

    def initialize(transport)
      super
      @segments = ContactSegments.new(transport)
      @topics = ContactTopics.new(transport)
      @imports = ContactImports.new(transport)
    end

    # POST /v1/contacts Types::CreateContactOptions → Types::Contact (ConflictError if the address already is one).
    # With audience_id (Resend's older form): POST /v1/audiences/:audience_id/contacts, where an existing contact
    # joins that audience.
    def create(params)
      body = symbolized(params)
      audience_id = body.delete(:audience_id)
      return http_post("/contacts", body) unless audience_id

      http_post("/audiences/#{segment(audience_id)}/contacts", body)
    end

    # GET /v1/contacts/:id_or_email → Types::Contact with its property values.
    def get(contact)
      http_get("/contacts/#{segment(contact_ref(contact))}")
    end

    # GET /v1/contacts → { object: "list", has_more:, data: [Types::Contact] }. params: limit, after, before,
    # segment_id (that segment's contacts; audience_id is the same).
    def list(params = {})
      page = query(params)
      audience_id = page.delete(:audience_id)
      page[:segment_id] ||= audience_id
      http_get("/contacts", page)
    end

    # PATCH /v1/contacts/:id_or_email Types::UpdateContactOptions → Types::Contact; a nil name clears it, a nil
    # property value removes it. update(id, params), or Resend's update(id: or email:, **params).
    def update(id_or_params, params = {})
      if id_or_params.is_a?(Hash)
        body = symbolized(id_or_params)
        contact = body.delete(:id) || body.delete(:contact_id) || body.delete(:email)
        raise ArgumentError, "id or email is required" unless contact
      else
        contact = id_or_params
        body = symbolized(params)
      end
      body.delete(:audience_id)
      http_patch("/contacts/#{segment(contact)}", body)
    end

    # DELETE /v1/contacts/:id_or_email → { object: "contact", id:, contact:, deleted: true }.
    def remove(contact)
      http_delete("/contacts/#{segment(contact_ref(contact))}")
    end
  end

  # A contact's segments: add(contact, segment_id), remove(contact, segment_id), list(contact, page), or Resend's
  # hashes: add(contact_id: or email:, segment_id:). Neither the contact nor the segment is deleted.
  class ContactSegments < Resource
    # POST /v1/contacts/:contact/segments/:segment_id → { id: (the segment), contact_id: }.
    def add(contact, segment_id = nil)
      http_post(membership_path(contact, segment_id))
    end

    # DELETE /v1/contacts/:contact/segments/:segment_id → { id:, contact_id:, deleted: true }.
    def remove(contact, segment_id = nil)
      http_delete(membership_path(contact, segment_id))
    end

    # GET /v1/contacts/:contact/segments → { object: "list", has_more:, data: [Types::Segment] }.
    def list(contact, params = {})
      page = contact.is_a?(Hash) ? symbolized(contact).slice(:limit, :after, :before) : query(params)
      http_get("/contacts/#{segment(contact_ref(contact))}/segments", page)
    end

    private

    def membership_path(contact, segment_id)
      segment_id ||= symbolized(contact)[:segment_id] if contact.is_a?(Hash)
      raise ArgumentError, "segment_id is required" if segment_id.nil?

      "/contacts/#{segment(contact_ref(contact))}/segments/#{segment(segment_id)}"
    end
  end

  # A contact's topic choices (docs/contacts.md#topic-rules).
  class ContactTopics < Resource
    # GET /v1/contacts/:contact/topics → { object: "list", has_more:, data: [Types::ContactTopic] }: every topic with
    # the contact's effective subscription.
    def list(contact, params = {})
      page = contact.is_a?(Hash) ? symbolized(contact).slice(:limit, :after, :before) : query(params)
      http_get("/contacts/#{segment(contact_ref(contact))}/topics", page)
    end

    # PATCH /v1/contacts/:contact/topics [{ id:, subscription: "opt_in" | "opt_out" }] → { id: (the contact) }.
    # update(contact, topics), or Resend's update(contact_id: or email:, topics: [...]).
    def update(contact, topics = nil)
      topics ||= symbolized(contact)[:topics] if contact.is_a?(Hash)
      raise ArgumentError, "topics is required" if topics.nil?

      # Resend's wire: the list itself is the body.
      http_patch("/contacts/#{segment(contact_ref(contact))}/topics", topics)
    end
  end
end
