/**
 * Suppressions get an id (Resend's suppression object: get and delete by id or address). Existing rows get a random
 * UUID; the column stays nullable only because SQLite cannot add a NOT NULL column without a default — every row
 * written from here on carries one.
 */
export default `
ALTER TABLE suppressions ADD COLUMN id TEXT;
UPDATE suppressions SET id = lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)));
CREATE UNIQUE INDEX suppressions_id ON suppressions(organization_id, id);
`;

export const postgres = `
ALTER TABLE suppressions ADD COLUMN id TEXT;
UPDATE suppressions SET id = gen_random_uuid()::text;
CREATE UNIQUE INDEX suppressions_id ON suppressions(organization_id, id);
`;
