/**
 * The audience scopes (docs/contacts.md#scopes): `contacts:read` and `contacts:write` cover contacts, their
 * properties, segments, topics and imports. They are part of full_access; a key stores its scopes expanded, so
 * every key that held every scope there was before them gains them, at the end, where they stand in canonical
 * order (as migrations 0017 and 0019 did). A sending-only key does not.
 */
const BEFORE = [
  "emails:send",
  "emails:read",
  "domains:read",
  "domains:write",
  "templates:read",
  "templates:write",
  "webhooks:read",
  "webhooks:write",
  "suppressions:read",
  "suppressions:write",
  "inbound:read",
  "api_keys:read",
  "api_keys:write",
  "ai:use",
  "deliveries:read",
  "deliveries:write",
  "organization:read",
  "organization:write",
  "members:read",
  "members:write",
  "audit:read",
];
const ADDED = ["contacts:read", "contacts:write"];
const list = (scopes: string[]) => scopes.map((scope) => `'${scope}'`).join(", ");

export default `
UPDATE api_keys
  SET scopes = json_insert(scopes, ${ADDED.map((scope) => `'$[#]', '${scope}'`).join(", ")})
  WHERE (SELECT count(DISTINCT value) FROM json_each(api_keys.scopes) WHERE value IN (${list(BEFORE)})) = ${BEFORE.length}
    AND NOT EXISTS (SELECT 1 FROM json_each(api_keys.scopes) WHERE value IN (${list(ADDED)}));
`;

export const postgres = `
UPDATE api_keys SET scopes = scopes || '${JSON.stringify(ADDED)}'::jsonb
  WHERE scopes @> '${JSON.stringify(BEFORE)}'::jsonb AND NOT scopes ?| ARRAY[${list(ADDED)}];
`;
