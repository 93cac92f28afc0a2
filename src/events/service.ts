/**
 * The append-only event log. Every status change of a message, domain or suppression is appended here, inside the
 * caller's transaction, and an email event also sets the message's denormalised `status` (= last event; a reply's
 * `email.received` in the history of the message it answers leaves that message's status alone).
 * Invariant: events are never updated or deleted; listeners (metrics, the webhook outbox) run in the same
 * transaction, so an event and what it fans out to commit together or not at all.
 */
import { eq, sql } from "drizzle-orm";
import { executeRaw, updateFromJsonRows } from "../db/dialect.ts";
import { forRows, insertMany, perConnection, prepareAs } from "../db/prepared.ts";
import { tablesOf, type Db } from "../db/store.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import type { NewEvent, StoredEvent } from "./model.ts";

export type EventListener = (tx: Db, event: StoredEvent) => Promise<void>;

export interface EventLog {
  /** Appends inside the caller's transaction `tx`. */
  append(tx: Db, event: NewEvent): Promise<StoredEvent>;
  /** Appends many inside `tx`, as `append` would one after another, with a few statements for them all. */
  appendMany(tx: Db, events: NewEvent[]): Promise<void>;
  /**
   * Appends many inside `tx` for messages whose rows were inserted with the status the last of their events sets
   * (acceptance): the status is not written again.
   */
  appendRecorded(tx: Db, events: NewEvent[]): Promise<void>;
  /** Registers a listener called for every appended event, inside the same transaction. */
  onAppend(listener: EventListener): void;
}

/** Appending is on the hot path of every send and delivery. */
const statementsFor = perConnection((tx: Db) => {
  const { emails, events } = tablesOf(tx);
  return {
    insert: prepareAs(
      "event_insert",
      tx.insert(events).values({
        id: sql.placeholder("id"),
        organizationId: sql.placeholder("organizationId"),
        emailId: sql.placeholder("emailId"),
        type: sql.placeholder("type"),
        recipient: sql.placeholder("recipient"),
        data: sql.placeholder("data"),
        createdAt: sql.placeholder("createdAt"),
      }),
    ),
    setStatus: prepareAs(
      "email_set_status",
      tx
        .update(emails)
        .set({
          status: sql.placeholder("status") as unknown as string,
          updatedAt: sql.placeholder("updatedAt") as unknown as string,
        })
        .where(eq(emails.id, sql.placeholder("emailId"))),
    ),
  };
});

/** Events kept in a sent message's history that say nothing of its own fate: a reply to it arrived. */
const ABOUT_ANOTHER_MESSAGE: ReadonlySet<string> = new Set(["email.received"]);

const stored = (input: NewEvent, createdAt: string): StoredEvent => ({
  id: newId(),
  organizationId: input.organizationId,
  type: input.type,
  emailId: input.emailId ?? null,
  recipient: input.recipient ?? null,
  data: input.data ?? {},
  createdAt,
  ...(input.webhookIds && { webhookIds: input.webhookIds }),
});

export function createEventLog(deps: { clock: Clock }): EventLog {
  const listeners: EventListener[] = [];

  /** Inserts `inputs`; with `setStatus`, each message's status becomes what the last of its events says. */
  const appendAll = async (tx: Db, inputs: NewEvent[], setStatus: boolean) => {
    const createdAt = isoTime(deps.clock.now());
    const appended = inputs.map((input) => stored(input, createdAt));
    const prepared = () => statementsFor(tx);
    await forRows(tx, appended, {
      each: (event) => prepared().insert.execute(event as unknown as Record<string, unknown>),
      many: (slice) => insertMany(tx, tablesOf(tx).events, slice as unknown as Record<string, unknown>[]),
    });
    if (setStatus) {
      const statusOf = new Map<string, StatusChange>();
      for (const event of appended)
        if (event.emailId && event.type.startsWith("email.") && !ABOUT_ANOTHER_MESSAGE.has(event.type))
          statusOf.set(event.emailId, { emailId: event.emailId, status: event.type.slice("email.".length), createdAt });
      await forRows(tx, [...statusOf.values()], {
        each: (change) => prepared().setStatus.execute({ ...change, updatedAt: change.createdAt }),
        many: (slice) => executeRaw(tx, setStatuses(slice)),
      });
    }
    for (const event of appended) for (const listener of listeners) await listener(tx, event);
    return appended;
  };

  return {
    async append(tx, input) {
      return (await appendAll(tx, [input], true))[0]!;
    },
    async appendMany(tx, inputs) {
      await appendAll(tx, inputs, true);
    },
    async appendRecorded(tx, inputs) {
      await appendAll(tx, inputs, false);
    },
    onAppend(listener) {
      listeners.push(listener);
    },
  };
}

interface StatusChange {
  emailId: string;
  status: string;
  createdAt: string;
}

/** PostgreSQL: the statuses of many messages in one statement. */
const setStatuses = (changes: StatusChange[]) =>
  updateFromJsonRows({
    table: "emails",
    key: "id",
    rowKey: "emailId",
    columns: `"emailId" text, status text, "createdAt" text`,
    rows: changes,
    set: `status = v.status, updated_at = v."createdAt"`,
  });
