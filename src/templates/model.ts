/** Types of saved templates (DESIGN §8) and their views in the Resend SDK's shape. */
import type { TemplateContent, TemplateEngine, TemplateVariable } from "../db/schema/templates.ts";

export { TEMPLATE_ENGINES } from "../db/schema/templates.ts";
export type { TemplateContent, TemplateEngine, TemplateVariable };

/** The values a render uses, by variable key: strings and numbers only (DESIGN §8), nothing a template can iterate. */
export type TemplateValues = Record<string, string | number>;

export interface TemplateView extends Omit<TemplateContent, "variables"> {
  object: "template";
  id: string;
  name: string;
  alias: string | null;
  engine: TemplateEngine;
  status: "draft" | "published";
  variables: TemplateVariable[];
  published_at: string | null;
  created_at: string;
  updated_at: string;
  has_unpublished_versions: boolean;
  current_version_id: string;
}

export type TemplateSummary = Pick<
  TemplateView,
  "id" | "name" | "alias" | "status" | "published_at" | "created_at" | "updated_at" | "engine"
>;

export interface Rendered {
  subject: string | null;
  html: string;
  text: string;
}

export interface TemplateProblem {
  line: number;
  column: number;
  message: string;
}

/** Where a template reference sits in a request, for naming it in a refusal. */
export interface TemplatePaths {
  id: string;
  variables: string;
}
