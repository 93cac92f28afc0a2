/**
 * Named providers (docs/delivery.md): the ordered providers a domain names (empty: the default provider), and the look-up
 * of a delivery by the id its provider gave it, which SES events (SNS notifications) name.
 */
export default `
ALTER TABLE domains ADD COLUMN providers TEXT NOT NULL DEFAULT '[]';
CREATE INDEX deliveries_provider_message ON deliveries(provider_message_id) WHERE provider_message_id IS NOT NULL;
`;

export const postgres = `
ALTER TABLE domains ADD COLUMN providers JSONB NOT NULL DEFAULT '[]';
CREATE INDEX deliveries_provider_message ON deliveries(provider_message_id) WHERE provider_message_id IS NOT NULL;
`;
