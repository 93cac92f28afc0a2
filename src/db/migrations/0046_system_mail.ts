/**
 * System mail (docs/teams.md#system-mail): `emails.system_mail` names mail Mailroom sent for itself about people's
 * accounts — `password_link`, `invitation` or `notice` — and null for the organisation's own mail; it keeps such mail
 * out of the organisation's lists, counts and webhooks. Until now a password link or an invitation was marked by the
 * tag `mailroom:private` (no other tag was ever given to it): those messages take their kind from the tag's value
 * and lose the tag, so the column is the one marker. A locked sign-in's notice carried no tag and cannot be told
 * from the organisation's mail afterwards: those sent before the upgrade stay listed.
 * The partial index serves the counts' "not system mail" look-up: an organisation's few such messages.
 */
const INDEX = "CREATE INDEX emails_system_mail ON emails (organization_id, id) WHERE system_mail IS NOT NULL;";

export default `
ALTER TABLE emails ADD COLUMN system_mail TEXT;
UPDATE emails
  SET system_mail = CASE WHEN EXISTS (SELECT 1 FROM json_each(emails.tags)
      WHERE json_extract(value, '$.name') = 'mailroom:private' AND json_extract(value, '$.value') = 'invitation')
    THEN 'invitation' ELSE 'password_link' END,
    tags = '[]'
  WHERE tags LIKE '%"mailroom:private"%'
    AND EXISTS (SELECT 1 FROM json_each(emails.tags) WHERE json_extract(value, '$.name') = 'mailroom:private');
${INDEX}
`;

export const postgres = `
ALTER TABLE emails ADD COLUMN system_mail TEXT;
UPDATE emails
  SET system_mail = CASE WHEN tags @> '[{"name": "mailroom:private", "value": "invitation"}]'::jsonb
    THEN 'invitation' ELSE 'password_link' END,
    tags = '[]'::jsonb
  WHERE tags @> '[{"name": "mailroom:private"}]'::jsonb;
${INDEX}
`;
