# frozen_string_literal: true

# Saved templates (DESIGN §8, Resend's template API plus render and validate): drafts, published versions,
# Handlebars or MJML sources. Every id argument also takes the template's alias.
module Mailroom
  class Templates < Resource
    # POST /v1/templates { name, html, subject?, text?, alias?, from?, reply_to?, variables?, engine? }.
    def create(params)
      http_post("/templates", symbolized(params))
    end

    # GET /v1/templates/:id_or_alias → its current version.
    def get(template_id)
      http_get("/templates/#{segment(template_id)}")
    end

    # GET /v1/templates. params: limit, after, before.
    def list(params = {})
      http_get("/templates", query(params))
    end

    # PATCH /v1/templates/:id — edits the draft; sends keep the published version until the next publish.
    def update(id_or_params, params = {})
      template_id, body = id_and_params(id_or_params, params, :template_id, :id)
      http_patch("/templates/#{segment(template_id)}", body)
    end

    # DELETE /v1/templates/:id → { object: "template", id:, deleted: true }.
    def remove(template_id)
      http_delete("/templates/#{segment(template_id)}")
    end

    # POST /v1/templates/:id/publish — sends use this version from now on.
    def publish(template_id)
      http_post("/templates/#{segment(template_id)}/publish")
    end

    # POST /v1/templates/:id/duplicate → a new draft template.
    def duplicate(template_id)
      http_post("/templates/#{segment(template_id)}/duplicate")
    end

    # POST /v1/templates/:id/render { variables } → { subject:, html:, text: } of the current draft.
    def render(template_id, params = {})
      http_post("/templates/#{segment(template_id)}/render", symbolized(params))
    end

    # POST /v1/templates/validate { html, subject?, text?, engine? } → { valid:, errors: [{ field, line, column, message }] }.
    def validate(params)
      http_post("/templates/validate", symbolized(params))
    end
  end
end
