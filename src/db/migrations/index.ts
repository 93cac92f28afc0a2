/**
 * Migrations embedded in the executable as SQL strings, applied in order at start inside one transaction each.
 * Invariant: a migration once released is never edited; a change is a new numbered file appended here.
 */
import foundation from "./0001_foundation.ts";
import domains from "./0002_domains.ts";
import webhooks from "./0003_webhooks.ts";
import emailContents from "./0004_email_contents.ts";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [
  { version: 1, name: "foundation", sql: foundation },
  { version: 2, name: "domains", sql: domains },
  { version: 3, name: "webhooks", sql: webhooks },
  { version: 4, name: "email_contents", sql: emailContents },
];
