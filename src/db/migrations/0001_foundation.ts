/** Organisations, keys, minimal domains, messages with one delivery row per recipient, events, suppressions. */
export default `
CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  rate_limit_per_minute INTEGER,
  created_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  token_prefix TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  domains TEXT,
  rate_limit_per_minute INTEGER,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);
CREATE INDEX api_keys_organization ON api_keys(organization_id);

CREATE TABLE domains (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL,
  verified_override INTEGER NOT NULL DEFAULT 0,
  open_tracking INTEGER NOT NULL DEFAULT 0,
  click_tracking INTEGER NOT NULL DEFAULT 0,
  return_path_subdomain TEXT NOT NULL DEFAULT 'send',
  receiving_enabled INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX domains_organization ON domains(organization_id);

CREATE TABLE emails (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  api_key_id TEXT,
  source TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  message_id TEXT NOT NULL,
  from_header TEXT NOT NULL,
  envelope_from TEXT NOT NULL,
  to_addresses TEXT NOT NULL,
  cc_addresses TEXT NOT NULL,
  bcc_addresses TEXT NOT NULL,
  reply_to TEXT NOT NULL,
  subject TEXT NOT NULL,
  html TEXT,
  text TEXT,
  tags TEXT NOT NULL,
  status TEXT NOT NULL,
  scheduled_at TEXT,
  size INTEGER NOT NULL,
  raw BLOB NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX emails_organization ON emails(organization_id, id);

CREATE TABLE deliveries (
  id TEXT PRIMARY KEY,
  email_id TEXT NOT NULL REFERENCES emails(id) ON DELETE CASCADE,
  organization_id TEXT NOT NULL,
  recipient TEXT NOT NULL,
  destination TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  lease_owner TEXT,
  lease_until INTEGER,
  last_response TEXT,
  provider TEXT,
  provider_message_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (email_id, recipient)
);
CREATE INDEX deliveries_due ON deliveries(next_attempt_at) WHERE next_attempt_at IS NOT NULL;

CREATE TABLE events (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  email_id TEXT REFERENCES emails(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  recipient TEXT,
  data TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX events_email ON events(email_id, id);

CREATE TABLE suppressions (
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  origin TEXT NOT NULL CHECK (origin IN ('bounce', 'complaint', 'unsubscribe', 'manual')),
  source_id TEXT,
  reason TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (organization_id, email)
);

CREATE TABLE idempotency_keys (
  api_key_id TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  response_status INTEGER NOT NULL,
  response_body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (api_key_id, endpoint, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
`;

/** PostgreSQL: the same tables with PostgreSQL's types (boolean, jsonb, bytea, bigint epoch ms). */
export const postgres = `
CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  rate_limit_per_minute INTEGER,
  created_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  token_prefix TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  scopes JSONB NOT NULL,
  domains JSONB,
  rate_limit_per_minute INTEGER,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);
CREATE INDEX api_keys_organization ON api_keys(organization_id);

CREATE TABLE domains (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL,
  verified_override BOOLEAN NOT NULL DEFAULT false,
  open_tracking BOOLEAN NOT NULL DEFAULT false,
  click_tracking BOOLEAN NOT NULL DEFAULT false,
  return_path_subdomain TEXT NOT NULL DEFAULT 'send',
  receiving_enabled BOOLEAN NOT NULL DEFAULT false,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX domains_organization ON domains(organization_id);

CREATE TABLE emails (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  api_key_id TEXT,
  source TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  message_id TEXT NOT NULL,
  from_header TEXT NOT NULL,
  envelope_from TEXT NOT NULL,
  to_addresses JSONB NOT NULL,
  cc_addresses JSONB NOT NULL,
  bcc_addresses JSONB NOT NULL,
  reply_to JSONB NOT NULL,
  subject TEXT NOT NULL,
  html TEXT,
  text TEXT,
  tags JSONB NOT NULL,
  status TEXT NOT NULL,
  scheduled_at TEXT,
  size INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX emails_organization ON emails(organization_id, id);

CREATE TABLE deliveries (
  id TEXT PRIMARY KEY,
  email_id TEXT NOT NULL REFERENCES emails(id) ON DELETE CASCADE,
  organization_id TEXT NOT NULL,
  recipient TEXT NOT NULL,
  destination TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT,
  lease_owner TEXT,
  lease_until BIGINT,
  last_response TEXT,
  provider TEXT,
  provider_message_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (email_id, recipient)
);
CREATE INDEX deliveries_due ON deliveries(next_attempt_at) WHERE next_attempt_at IS NOT NULL;

CREATE TABLE events (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  email_id TEXT REFERENCES emails(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  recipient TEXT,
  data JSONB NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX events_email ON events(email_id, id);

CREATE TABLE suppressions (
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  origin TEXT NOT NULL CHECK (origin IN ('bounce', 'complaint', 'unsubscribe', 'manual')),
  source_id TEXT,
  reason TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (organization_id, email)
);

CREATE TABLE idempotency_keys (
  api_key_id TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  response_status INTEGER NOT NULL,
  response_body TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (api_key_id, endpoint, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
`;
