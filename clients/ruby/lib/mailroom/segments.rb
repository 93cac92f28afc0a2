# frozen_string_literal: true

# Segments (docs/contacts.md, Resend's segments) and audiences, Resend's older name for the same groups: create, get,
# list, rename, remove, and a segment's contacts. Membership is changed from the contact's side (contacts.segments).
module Mailroom
  class Segments < Resource
    BASE = "/segments"

    # POST /v1/segments { name: } → Types::Segment.
    def create(params)
      http_post(self.class::BASE, symbolized(params))
    end

    # GET /v1/segments/:id → Types::Segment.
    def get(segment_id)
      http_get("#{self.class::BASE}/#{segment(segment_id)}")
    end

    # GET /v1/segments → { object: "list", has_more:, data: [Types::Segment] }. params: limit, after, before.
    def list(params = {})
      http_get(self.class::BASE, query(params))
    end

    # PATCH /v1/segments/:id { name: } → Types::Segment (a rename). update(id, name: …) or update(id:, name: …).
    def update(id_or_params, params = {})
      segment_id, body = id_and_params(id_or_params, params, :segment_id, :audience_id, :id)
      http_patch("#{self.class::BASE}/#{segment(segment_id)}", body)
    end

    # DELETE /v1/segments/:id → { object: "segment", id:, deleted: true }; its contacts stay.
    def remove(segment_id)
      http_delete("#{self.class::BASE}/#{segment(segment_id)}")
    end

    # GET /v1/segments/:id/contacts → { object: "list", has_more:, data: [Types::Contact] }.
    def contacts(segment_id, params = {})
      http_get("#{self.class::BASE}/#{segment(segment_id)}/contacts", query(params))
    end
  end

  # The same calls on Resend's older paths (/v1/audiences): an audience is a segment.
  class Audiences < Segments
    BASE = "/audiences"
  end
end
