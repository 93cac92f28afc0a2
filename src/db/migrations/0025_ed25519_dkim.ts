/**
 * Ed25519 DKIM keys (RFC 8463, docs/deliverability.md) beside the RSA ones: `dkim_keys.algorithm` is `rsa` or `ed25519`, and a
 * domain has one active key per algorithm. The RSA key is the one that verifies the domain and rotates; an Ed25519
 * key is a second signature a domain asks for.
 */
const sql = `
ALTER TABLE dkim_keys ADD COLUMN algorithm TEXT NOT NULL DEFAULT 'rsa';
DROP INDEX dkim_keys_one_active;
CREATE UNIQUE INDEX dkim_keys_one_active ON dkim_keys(domain_id, algorithm) WHERE state = 'active';
`;

export default sql;
export const postgres = sql;
