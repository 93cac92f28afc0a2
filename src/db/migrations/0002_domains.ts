/**
 * Sending domains: per-record verification statuses, the check schedule, and DKIM keys with selectors so a
 * rotation can publish a new key beside the active one. Domains created before this migration get their key at
 * their first scheduled check (due at once).
 */
export default `
ALTER TABLE domains ADD COLUMN record_statuses TEXT NOT NULL DEFAULT '{}';
ALTER TABLE domains ADD COLUMN status_since INTEGER NOT NULL DEFAULT 0;
ALTER TABLE domains ADD COLUMN next_check_at INTEGER;
ALTER TABLE domains ADD COLUMN last_checked_at TEXT;
UPDATE domains SET status_since = CAST(strftime('%s', created_at) AS INTEGER) * 1000, next_check_at = 0;
CREATE INDEX domains_next_check ON domains(next_check_at) WHERE next_check_at IS NOT NULL;

CREATE TABLE dkim_keys (
  id TEXT PRIMARY KEY,
  domain_id TEXT NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  selector TEXT NOT NULL,
  public_key TEXT NOT NULL,
  private_key TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('active', 'next', 'retired')),
  created_at TEXT NOT NULL,
  activated_at TEXT,
  retired_at TEXT,
  UNIQUE (domain_id, selector)
);
CREATE UNIQUE INDEX dkim_keys_one_active ON dkim_keys(domain_id) WHERE state = 'active';
CREATE UNIQUE INDEX dkim_keys_one_next ON dkim_keys(domain_id) WHERE state = 'next';
`;

export const postgres = `
ALTER TABLE domains ADD COLUMN record_statuses JSONB NOT NULL DEFAULT '{}';
ALTER TABLE domains ADD COLUMN status_since BIGINT NOT NULL DEFAULT 0;
ALTER TABLE domains ADD COLUMN next_check_at BIGINT;
ALTER TABLE domains ADD COLUMN last_checked_at TEXT;
CREATE INDEX domains_next_check ON domains(next_check_at) WHERE next_check_at IS NOT NULL;

CREATE TABLE dkim_keys (
  id TEXT PRIMARY KEY,
  domain_id TEXT NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  selector TEXT NOT NULL,
  public_key TEXT NOT NULL,
  private_key TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('active', 'next', 'retired')),
  created_at TEXT NOT NULL,
  activated_at TEXT,
  retired_at TEXT,
  UNIQUE (domain_id, selector)
);
CREATE UNIQUE INDEX dkim_keys_one_active ON dkim_keys(domain_id) WHERE state = 'active';
CREATE UNIQUE INDEX dkim_keys_one_next ON dkim_keys(domain_id) WHERE state = 'next';
`;
