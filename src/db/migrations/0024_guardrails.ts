/**
 * Reputation guardrails (docs/deliverability.md): the bounce and complaint rates of each sending domain and organisation as the
 * guardrail job last measured them (`health`: rates, recipients counted, status and its reason; null before the first
 * measurement), and `health_since`, the time from which endings count (the window's start, or a person's resume of a
 * guardrail pause when later: a resumed domain is judged on what it sends afterwards).
 */
const columns = (millis: string, json: string) => `
ALTER TABLE domains ADD COLUMN health ${json};
ALTER TABLE domains ADD COLUMN health_since ${millis} NOT NULL DEFAULT 0;
ALTER TABLE organizations ADD COLUMN health ${json};
ALTER TABLE organizations ADD COLUMN health_since ${millis} NOT NULL DEFAULT 0;
`;

export default columns("INTEGER", "TEXT");
export const postgres = columns("BIGINT", "JSONB");
