/**
 * Mail received by the inbound MX (docs/inbound.md): one record per message with its parsed fields and authentication
 * results, the raw message in its own table (as for sent mail, lists never load it), and an index on the sent
 * messages' Message-ID, by which replies (In-Reply-To, References) and returned reports find what they answer.
 */
export default `
CREATE INDEX emails_message_id ON emails(message_id);

CREATE TABLE received_emails (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  in_reply_to_email_id TEXT REFERENCES emails(id) ON DELETE SET NULL,
  message_id TEXT,
  envelope_from TEXT NOT NULL,
  received_for TEXT NOT NULL,
  from_header TEXT NOT NULL,
  to_addresses TEXT NOT NULL,
  cc_addresses TEXT NOT NULL,
  bcc_addresses TEXT NOT NULL,
  reply_to TEXT NOT NULL,
  subject TEXT NOT NULL,
  html TEXT,
  text TEXT,
  headers TEXT NOT NULL,
  attachments TEXT NOT NULL,
  authentication TEXT NOT NULL,
  auto_reply TEXT,
  client_address TEXT NOT NULL,
  size INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX received_emails_organization ON received_emails(organization_id, id);
CREATE INDEX received_emails_created ON received_emails(created_at);

CREATE TABLE received_contents (
  received_email_id TEXT PRIMARY KEY REFERENCES received_emails(id) ON DELETE CASCADE,
  raw BLOB NOT NULL
);
`;

export const postgres = `
CREATE INDEX emails_message_id ON emails(message_id);

CREATE TABLE received_emails (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  in_reply_to_email_id TEXT REFERENCES emails(id) ON DELETE SET NULL,
  message_id TEXT,
  envelope_from TEXT NOT NULL,
  received_for JSONB NOT NULL,
  from_header TEXT NOT NULL,
  to_addresses JSONB NOT NULL,
  cc_addresses JSONB NOT NULL,
  bcc_addresses JSONB NOT NULL,
  reply_to JSONB NOT NULL,
  subject TEXT NOT NULL,
  html TEXT,
  text TEXT,
  headers JSONB NOT NULL,
  attachments JSONB NOT NULL,
  authentication JSONB NOT NULL,
  auto_reply TEXT,
  client_address TEXT NOT NULL,
  size INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX received_emails_organization ON received_emails(organization_id, id);
CREATE INDEX received_emails_created ON received_emails(created_at);

CREATE TABLE received_contents (
  received_email_id TEXT PRIMARY KEY REFERENCES received_emails(id) ON DELETE CASCADE,
  raw BYTEA NOT NULL
);
`;
