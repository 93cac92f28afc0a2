/**
 * Saved templates (docs/templates-and-ai.md#templates, Resend's template API): one row per template holding its current version (`draft`,
 * what an edit changes) and the version sends use (`published`), each a JSON document of subject, from,
 * reply_to, html, text and variables; and the template a message was sent with.
 */
export default `
CREATE TABLE templates (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  alias TEXT,
  engine TEXT NOT NULL,
  draft TEXT NOT NULL,
  draft_version_id TEXT NOT NULL,
  published TEXT,
  published_version_id TEXT,
  published_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX templates_organization ON templates(organization_id, id);
CREATE UNIQUE INDEX templates_alias ON templates(organization_id, alias) WHERE alias IS NOT NULL;

ALTER TABLE emails ADD COLUMN template_id TEXT;
`;

export const postgres = `
CREATE TABLE templates (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  alias TEXT,
  engine TEXT NOT NULL,
  draft JSONB NOT NULL,
  draft_version_id TEXT NOT NULL,
  published JSONB,
  published_version_id TEXT,
  published_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX templates_organization ON templates(organization_id, id);
CREATE UNIQUE INDEX templates_alias ON templates(organization_id, alias) WHERE alias IS NOT NULL;

ALTER TABLE emails ADD COLUMN template_id TEXT;
`;
