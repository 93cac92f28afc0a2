/**
 * A test key sees test-mode mail only (docs/keys-and-limits.md), so its lists and statistics read the organisation's test-mode
 * messages alone. Without this index such a page walks every live message of the organisation to find none (a scan
 * any test key could start); with it, the few test-mode messages are read directly. Partial on a literal, which
 * both engines match against the literal `mode = 'test'` in the queries, prepared or not.
 */
export default `
CREATE INDEX emails_organization_test_mode ON emails(organization_id, id) WHERE mode = 'test';
`;

export const postgres = `
CREATE INDEX emails_organization_test_mode ON emails(organization_id, id) WHERE mode = 'test';
`;
