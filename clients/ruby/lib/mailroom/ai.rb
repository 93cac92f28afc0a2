# frozen_string_literal: true

# The AI helpers (docs/templates-and-ai.md#ai-writer-and-subject-scoring): whether a model is configured, subject scoring, which works offline, and drafting,
# which needs a configured model.
module Mailroom
  class AI < Resource
    # GET /v1/ai → Types::AiStatus: model is the configured model's name (nil without one); message then says what
    # to configure, the words write's ServiceUnavailableError would carry. Ask before submitting a brief: drafts and
    # subject suggestions need a model.
    def status
      http_get("/ai")
    end

    # POST /v1/ai/subject Types::SubjectOptions → Types::SubjectResponse.
    def subject(params)
      http_post("/ai/subject", symbolized(params))
    end

    # POST /v1/ai/write Types::WriteOptions → Types::WriteResponse.
    # Without a model configured on the server this raises Mailroom::ServiceUnavailableError.
    def write(params)
      http_post("/ai/write", symbolized(params))
    end
  end
end
