# frozen_string_literal: true

# The AI helpers (DESIGN §8): subject scoring, which works offline, and drafting, which needs a configured model.
module Mailroom
  class AI < Resource
    # POST /v1/ai/subject { subject, html?, text? } → { score:, findings: [...], suggestions: [...] }.
    def subject(params)
      http_post("/ai/subject", symbolized(params))
    end

    # POST /v1/ai/write { brief, tone?, audience?, format?, save_as_template? } → { subject:, html:, text:, … }.
    # Without a model configured on the server this raises Mailroom::ServiceUnavailableError.
    def write(params)
      http_post("/ai/write", symbolized(params))
    end
  end
end
