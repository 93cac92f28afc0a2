/**
 * Sending IPs (docs/deliverability.md): `domains.ip_pool` names the `[ip_pools.<name>]` a domain's direct delivery binds its
 * source addresses from; `ip_volumes` counts the messages each source address delivered per destination provider and
 * UTC day (what warm-up caps), and `ip_first_use` the day an address first sent (the warm-up's day 1), both shared by
 * the instances.
 */
const tables = `
ALTER TABLE domains ADD COLUMN ip_pool TEXT;
CREATE TABLE ip_volumes (
  address TEXT NOT NULL,
  provider TEXT NOT NULL,
  day TEXT NOT NULL,
  messages INTEGER NOT NULL,
  PRIMARY KEY (address, provider, day)
);
CREATE TABLE ip_first_use (
  address TEXT PRIMARY KEY,
  day TEXT NOT NULL
);
`;

export default tables;
export const postgres = tables;
