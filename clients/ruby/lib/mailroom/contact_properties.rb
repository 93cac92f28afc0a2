# frozen_string_literal: true

# Contact properties (docs/contacts.md, Resend's contactProperties): the custom fields contacts may carry, each with a
# type (string, number or boolean) and a fallback value used where a contact has none.
module Mailroom
  class ContactProperties < Resource
    # POST /v1/contact-properties Types::CreateContactPropertyOptions (key, type, fallback_value) →
    # Types::ContactProperty.
    def create(params)
      http_post("/contact-properties", symbolized(params))
    end

    # GET /v1/contact-properties/:id → Types::ContactProperty.
    def get(property_id)
      http_get("/contact-properties/#{segment(property_id)}")
    end

    # GET /v1/contact-properties → { object: "list", has_more:, data: [Types::ContactProperty] }.
    def list(params = {})
      http_get("/contact-properties", query(params))
    end

    # PATCH /v1/contact-properties/:id { fallback_value: } → Types::ContactProperty (nil clears the fallback; the
    # key and type cannot change). update(id, params), or Resend's update(id:, **params).
    def update(id_or_params, params = {})
      property_id, body = id_and_params(id_or_params, params, :id, :property_id)
      http_patch("/contact-properties/#{segment(property_id)}", body)
    end

    # DELETE /v1/contact-properties/:id → { object: "contact_property", id:, deleted: true }.
    def remove(property_id)
      http_delete("/contact-properties/#{segment(property_id)}")
    end
  end
end
