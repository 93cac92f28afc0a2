/**
 * Organisations own keys, domains, messages and suppressions. A single-team install has one, created on the
 * first start. Invariant: `ensureDefault` is idempotent and creates the organisation at most once.
 */
import { asc } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { organizations } from "../db/schema/index.ts";
import type { Writer } from "../db/writer.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";

export interface Organization {
  id: string;
  name: string;
}

export interface OrganizationService {
  /** The first organisation; created (with `created: true`) when the store is empty. */
  ensureDefault(): Promise<Organization & { created: boolean }>;
}

export function createOrganizationService(deps: { db: Db; writer: Writer; clock: Clock }): OrganizationService {
  const { db, writer, clock } = deps;
  const first = () => db.select({ id: organizations.id, name: organizations.name }).from(organizations).orderBy(asc(organizations.id)).limit(1).get();
  return {
    async ensureDefault() {
      const existing = first();
      if (existing) return { ...existing, created: false };
      return writer.write((tx) => {
        const raced = tx.select({ id: organizations.id, name: organizations.name }).from(organizations).limit(1).get();
        if (raced) return { ...raced, created: false };
        const org = { id: newId(), name: "Default", createdAt: isoTime(clock.now()) };
        tx.insert(organizations).values(org).run();
        return { id: org.id, name: org.name, created: true };
      });
    },
  };
}
