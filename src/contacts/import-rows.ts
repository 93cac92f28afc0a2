/**
 * One batch of an import's CSV records applied to the contacts (docs/contacts.md#imports): each record checked and
 * turned into a contact, created or (on_conflict upsert) updated or (skip) left, given the import's segments and
 * topics. Invariant: a record that fails changes nothing and is counted with its line; the batch's changes and its
 * counts commit together, so the counts say how far an import got.
 */
import { and, eq } from "drizzle-orm";
import { inJsonArray } from "../db/dialect.ts";
import type { contactImports, ImportLineError, PropertyValues } from "../db/schema/index.ts";
import { tablesOf, type Db } from "../db/store.ts";
import { AppError } from "../errors.ts";
import { newId } from "../lib/ids.ts";
import { propertiesOf, setChoice } from "./audience-repo.ts";
import { addMember, type ContactRow, insertContact, updateContact } from "./repo.ts";
import { contactKey, MAX_NAME } from "./validate.ts";

export type ImportRow = typeof contactImports.$inferSelect;
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

/** Applies `records` in `tx`; answers what happened to them. */
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
  // The batch's existing contacts in one statement, by the unique (organization_id, email) index.
  const { contacts } = tablesOf(tx);
  const existing = new Map<string, ContactRow>();
  if (read.length > 0) {
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
  }
  for (const { contact } of read) {
    let row = existing.get(contact.email);
    if (row && job.onConflict === "skip") {
      counts.skipped++;
      continue;
    }
    if (row) {
      const updated: ContactRow = {
        ...row,
        firstName: contact.first === undefined ? row.firstName : contact.first,
        lastName: contact.last === undefined ? row.lastName : contact.last,
        unsubscribed: contact.unsubscribed ?? row.unsubscribed,
        properties: { ...row.properties, ...contact.properties },
        updatedAt: now,
      };
      const { firstName, lastName, unsubscribed, properties, updatedAt } = updated;
      await updateContact(tx, row.id, { firstName, lastName, unsubscribed, properties, updatedAt });
      row = updated;
      counts.updated++;
    } else {
      row = {
        id: newId(),
        organizationId: job.organizationId,
        email: contact.email,
        firstName: contact.first ?? null,
        lastName: contact.last ?? null,
        unsubscribed: contact.unsubscribed ?? false,
        properties: contact.properties,
        createdAt: now,
        updatedAt: now,
      };
      await insertContact(tx, row);
      counts.created++;
    }
    // A second line of the same address in the file updates the contact the first one made.
    existing.set(row.email, row);
    for (const segmentId of job.segments) await addMember(tx, segmentId, row.id, now);
    for (const topic of job.topics) await setChoice(tx, row.id, topic.id, topic.subscription, now);
  }
  return counts;
}
