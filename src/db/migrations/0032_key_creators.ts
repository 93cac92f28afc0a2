/**
 * Which key minted a key (docs/keys-and-limits.md: what a key sends counts against its creator's daily quota too, so minting never
 * multiplies a quota). `api_keys.created_by_key_id` names the creating key; null for keys made by a person or at the
 * console. Keys made before this migration take their creator from the audit log's `api_key.created`, where it still
 * holds it (`[retention] audit`); a key whose record is gone keeps null and counts against its own quota alone.
 */
const sql = `
ALTER TABLE api_keys ADD COLUMN created_by_key_id TEXT;
UPDATE api_keys SET created_by_key_id = (
  SELECT audit_events.actor_id FROM audit_events
  WHERE audit_events.action = 'api_key.created'
    AND audit_events.actor_type = 'api_key'
    AND audit_events.target_id = api_keys.id
  LIMIT 1
);
`;

export default sql;
export const postgres = sql;
