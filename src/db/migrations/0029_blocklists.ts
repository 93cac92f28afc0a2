/**
 * Blocklist checks (docs/deliverability.md): per sending address and DNS blocklist zone, the last answer — listed or not, the
 * list's stated reason (its TXT record), and when it was asked. One row per address and list, replaced at each check.
 */
const table = `
CREATE TABLE blocklist_listings (
  address TEXT NOT NULL,
  zone TEXT NOT NULL,
  listed BOOLEAN NOT NULL,
  reason TEXT,
  checked_at TEXT NOT NULL,
  PRIMARY KEY (address, zone)
);
`;

export default table;
export const postgres = table;
