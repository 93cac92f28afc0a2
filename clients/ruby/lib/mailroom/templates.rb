# frozen_string_literal: true

# Saved templates (docs/templates-and-ai.md#templates, Resend's template API plus render and validate): drafts, published versions,
# Handlebars or MJML sources. Every id argument also takes the template's alias.
module Mailroom
  class Templates < Resource
    # POST /v1/templates Types::CreateTemplateOptions → Types::TemplateResponse.
    def create(params)
      http_post("/templates", symbolized(params))
    end

    # GET /v1/templates/:id_or_alias → Types::Template, its current version.
    def get(template_id)
      http_get("/templates/#{segment(template_id)}")
    end

    # GET /v1/templates → { object: "list", has_more:, data: [Types::TemplateSummary] }. params: limit, after, before.
    def list(params = {})
      http_get("/templates", query(params))
    end

    # PATCH /v1/templates/:id Types::UpdateTemplateOptions — edits the draft; sends keep the published version until
    # the next publish.
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

    # POST /v1/templates/:id/render Types::RenderTemplateOptions → Types::RenderedTemplate, of the current draft.
    def render(template_id, params = {})
      http_post("/templates/#{segment(template_id)}/render", symbolized(params))
    end

    # POST /v1/templates/validate Types::ValidateTemplateOptions → Types::TemplateValidation.
    def validate(params)
      http_post("/templates/validate", symbolized(params))
    end
  end
end
