/**
 * The topic a message was sent for (docs/contacts-preferences.md#sending-with-a-topic): `emails.topic_id` names it,
 * or is null for mail without a topic, which no topic choice ever affects. No foreign key: a topic deleted later
 * leaves its messages' history as it was, and an unsubscribe link in them then finds no topic to leave.
 */
const sql = `
ALTER TABLE emails ADD COLUMN topic_id TEXT;
`;

export default sql;
export const postgres = sql;
