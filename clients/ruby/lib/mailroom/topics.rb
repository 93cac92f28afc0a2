# frozen_string_literal: true

# Topics (docs/contacts.md#topic-rules, Resend's topics): the kinds of mail a contact may choose to receive or not. A
# send with topic_id skips whoever left the topic (docs/contacts-preferences.md).
module Mailroom
  class Topics < Resource
    # POST /v1/topics Types::CreateTopicOptions (name, description, default_subscription "opt_in" | "opt_out", fixed
    # once created, visibility "public" | "private") → Types::Topic.
    def create(params)
      http_post("/topics", symbolized(params))
    end

    # GET /v1/topics/:id → Types::Topic.
    def get(topic_id)
      http_get("/topics/#{segment(topic_id)}")
    end

    # GET /v1/topics → { object: "list", has_more:, data: [Types::Topic] }. params: limit, after, before.
    def list(params = {})
      http_get("/topics", query(params))
    end

    # PATCH /v1/topics/:id Types::UpdateTopicOptions → Types::Topic; description: nil clears it.
    # update(id, params), or Resend's update(topic_id:, **params).
    def update(id_or_params, params = {})
      topic_id, body = id_and_params(id_or_params, params, :topic_id, :id)
      http_patch("/topics/#{segment(topic_id)}", body)
    end

    # DELETE /v1/topics/:id → { object: "topic", id:, deleted: true }, with every contact's choice of it.
    def remove(topic_id)
      http_delete("/topics/#{segment(topic_id)}")
    end
  end
end
