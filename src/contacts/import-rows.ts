/**
 * One batch of an import's CSV records applied to the contacts (docs/contacts.md#imports): each record checked and
 * turned into a contact, created or (on_conflict upsert) updated or (skip) left, given the import's segments and
 * topics. Invariant: a record that fails changes nothing and is counted with its line; the batch's changes and its
 * counts commit together, so the counts say how far an import got.
 */
import { and, eq, sql } from "drizzle-orm";
import { inJsonArray } from "../db/dialect.ts";
import type { contactImports, ImportLineError, PropertyValues } from "../db/schema/index.ts";
import { forRows, perConnection, placeholders, prepareAs } from "../db/prepared.ts";
import { tablesOf, type Db } from "../db/store.ts";
import { AppError } from "../errors.ts";
import { newId } from "../lib/ids.ts";
import { propertiesOf } from "./audience-repo.ts";
import type { ContactRow } from "./repo.ts";
import { contactKey, MAX_NAME } from "./validate.ts";

export type ImportRow = typeof contactImports.$inferSelect;

// An import's writes, in the form each engine runs cheaper (db/prepared.ts `forRows`): on SQLite, where they run on
// the event loop, statements prepared once and run row by row (a multi-row statement built by the query builder
// cost about 28 µs a row, measured, where these cost a few); on PostgreSQL, one multi-row statement per slice.
const upsertContact = (db: Db) => {
  const { contacts } = tablesOf(db);
  return {
    target: [contacts.organizationId, contacts.email],
    set: {
      firstName: sql.raw("excluded.first_name"),
      lastName: sql.raw("excluded.last_name"),
      unsubscribed: sql.raw("excluded.unsubscribed"),
      properties: sql.raw("excluded.properties"),
      updatedAt: sql.raw("excluded.updated_at"),
    },
  };
};
const upsertChoice = (db: Db) => {
  const { contactTopics } = tablesOf(db);
  return {
    target: [contactTopics.contactId, contactTopics.topicId],
    set: { subscription: sql.raw("excluded.subscription"), updatedAt: sql.raw("excluded.updated_at") },
  };
};
const CONTACT_COLUMNS = [
  "id",
  "organizationId",
  "email",
  "firstName",
  "lastName",
  "unsubscribed",
  "properties",
  "createdAt",
  "updatedAt",
] as const;
const statements = perConnection((db: Db) => {
  const { contacts, contactSegments, contactTopics } = tablesOf(db);
  const contact = () => db.insert(contacts).values(placeholders(CONTACT_COLUMNS));
  return {
    upsert: prepareAs(
      "contact_import_upsert",
      contact().onConflictDoUpdate(upsertContact(db)).returning({ id: contacts.id, email: contacts.email }),
    ),
    insertNew: prepareAs(
      "contact_import_insert",
      contact().onConflictDoNothing().returning({ id: contacts.id, email: contacts.email }),
    ),
    member: prepareAs(
      "contact_import_member",
      db
        .insert(contactSegments)
        .values(placeholders(["segmentId", "contactId", "createdAt"]))
        .onConflictDoNothing(),
    ),
    choice: prepareAs(
      "contact_import_choice",
      db
        .insert(contactTopics)
        .values(placeholders(["contactId", "topicId", "subscription", "updatedAt"]))
        .onConflictDoUpdate(upsertChoice(db)),
    ),
  };
});
/** Lines that failed kept per import (the rest are counted). */
export const KEPT_LINE_ERRORS = 100;

export interface CsvRecord {
  line: number;
  fields: Record<string, string>;
}

export interface BatchCounts {
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  errors: ImportLineError[];
}

const TRUE = new Set(["true", "1", "yes", "y"]);

/** A record as a contact's fields, or why it cannot be one. */
function readRecord(
  record: CsvRecord,
  job: ImportRow,
  types: Map<string, { type: "string" | "number" }>,
): { email: string; first?: string | null; last?: string | null; unsubscribed?: boolean; properties: PropertyValues } {
  const map = job.columnMap;
  const cell = (column: string | undefined) => (column === undefined ? undefined : record.fields[column]?.trim());
  const address = cell(map.email ?? "email");
  if (!address) throw new AppError("validation_error", "no email address");
  const email = contactKey(address);
  const name = (column: string | undefined, fallback: string) => {
    const value = cell(column ?? fallback);
    if (value === undefined) return undefined;
    if (value.length > MAX_NAME) throw new AppError("validation_error", `${fallback} is longer than ${MAX_NAME}`);
    return value === "" ? null : value;
  };
  const unsubscribedCell = cell(map.unsubscribed ?? "unsubscribed");
  const properties: PropertyValues = {};
  for (const [key, mapping] of Object.entries(map.properties ?? {})) {
    const property = types.get(key);
    if (!property) throw new AppError("validation_error", `there is no contact property "${key}"`);
    const value = cell(mapping.column);
    if (value === undefined || value === "") continue;
    if (property.type === "number") {
      const number = Number(value);
      if (!Number.isFinite(number)) throw new AppError("validation_error", `${key} must be a number`);
      properties[key] = number;
    } else properties[key] = value;
  }
  return {
    email,
    first: name(map.first_name, "first_name"),
    last: name(map.last_name, "last_name"),
    unsubscribed: unsubscribedCell === undefined ? undefined : TRUE.has(unsubscribedCell.toLowerCase()),
    properties,
  };
}

/**
 * Applies `records` in `tx`; answers what happened to them. Set-based, so a batch costs a handful of statements
 * whatever its size (docs/contacts.md#imports): one read of the batch's existing contacts by `contacts_email`, one
 * upsert of every contact the batch touches, one insert of its segment memberships and one of its topic choices.
 */
export async function applyBatch(tx: Db, job: ImportRow, records: CsvRecord[], now: string): Promise<BatchCounts> {
  const counts: BatchCounts = { created: 0, updated: 0, skipped: 0, failed: 0, errors: [] };
  const fail = (line: number, message: string) => {
    counts.failed++;
    counts.errors.push({ line, message });
  };
  const types = await propertiesOf(tx, job.organizationId);
  const read: Array<{ line: number; contact: ReturnType<typeof readRecord> }> = [];
  for (const record of records) {
    try {
      read.push({ line: record.line, contact: readRecord(record, job, types) });
    } catch (error) {
      fail(record.line, error instanceof AppError ? error.message : "could not be read");
    }
  }
  if (read.length === 0) return counts;
  const { contacts, contactSegments, contactTopics } = tablesOf(tx);
  const existing = new Map<string, ContactRow>();
  const rows = await tx
    .select()
    .from(contacts)
    .where(
      and(
        eq(contacts.organizationId, job.organizationId),
        inJsonArray(tx, contacts.email, JSON.stringify(read.map((r) => r.contact.email))),
      ),
    );
  for (const row of rows) existing.set(row.email, row);
  // The batch's outcome per address: a second line of the same address updates what the first one made.
  const touched = new Map<string, ContactRow>();
  for (const { contact } of read) {
    const row = touched.get(contact.email) ?? existing.get(contact.email);
    if (row && job.onConflict === "skip") {
      counts.skipped++;
      continue;
    }
    if (row) {
      touched.set(contact.email, {
        ...row,
        firstName: contact.first === undefined ? row.firstName : contact.first,
        lastName: contact.last === undefined ? row.lastName : contact.last,
        unsubscribed: contact.unsubscribed ?? row.unsubscribed,
        properties: { ...row.properties, ...contact.properties },
        updatedAt: now,
      });
      counts.updated++;
    } else {
      touched.set(contact.email, {
        id: newId(),
        organizationId: job.organizationId,
        email: contact.email,
        firstName: contact.first ?? null,
        lastName: contact.last ?? null,
        unsubscribed: contact.unsubscribed ?? false,
        properties: contact.properties,
        createdAt: now,
        updatedAt: now,
      });
      counts.created++;
    }
  }
  if (touched.size === 0) return counts;
  // A contact that another writer made since the read above is updated (upsert) or left (skip) by the unique
  // `contacts_email`, and the counts follow what the statement did.
  const values = [...touched.values()];
  const skip = job.onConflict === "skip";
  const written = await forRows<ContactRow, { id: string; email: string }>(tx, values, {
    each: (row) => (skip ? statements(tx).insertNew : statements(tx).upsert).execute(row),
    many: (slice) => {
      const insert = tx.insert(contacts).values(slice);
      return (skip ? insert.onConflictDoNothing() : insert.onConflictDoUpdate(upsertContact(tx))).returning({
        id: contacts.id,
        email: contacts.email,
      });
    },
  });
  const ids = new Map(written.map((row) => [row.email, row.id]));
  for (const row of values) {
    const id = ids.get(row.email);
    if (id === undefined) {
      counts.created--;
      counts.skipped++;
    } else if (id !== row.id && !existing.has(row.email)) {
      counts.created--;
      counts.updated++;
    }
  }
  const contactIds = [...ids.values()];
  const memberships = job.segments.flatMap((segmentId) =>
    contactIds.map((contactId) => ({ segmentId, contactId, createdAt: now })),
  );
  await forRows(tx, memberships, {
    each: (row) => statements(tx).member.execute(row),
    many: (slice) => tx.insert(contactSegments).values(slice).onConflictDoNothing(),
  });
  const choices = job.topics.flatMap((topic) =>
    contactIds.map((contactId) => ({ contactId, topicId: topic.id, subscription: topic.subscription, updatedAt: now })),
  );
  await forRows(tx, choices, {
    each: (row) => statements(tx).choice.execute(row),
    many: (slice) => tx.insert(contactTopics).values(slice).onConflictDoUpdate(upsertChoice(tx)),
  });
  return counts;
}
