/**
 * The append-only event log. Every status change of a message, domain or suppression is appended here, inside the
 * caller's transaction, and an email event also sets the message's denormalised `status` (= last event).
 * Invariant: events are never updated or deleted; listeners (metrics, the webhook outbox) run in the same
 * transaction, so an event and what it fans out to commit together or not at all.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { emails, events } from "../db/schema/index.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import type { NewEvent, StoredEvent } from "./model.ts";

export type EventListener = (tx: Db, event: StoredEvent) => void;

export interface EventLog {
  /** Appends inside the caller's transaction `tx`. */
  append(tx: Db, event: NewEvent): StoredEvent;
  /** Registers a listener called for every appended event, inside the same transaction. */
  onAppend(listener: EventListener): void;
}

export function createEventLog(deps: { clock: Clock }): EventLog {
  const listeners: EventListener[] = [];
  return {
    append(tx, input) {
      const createdAt = isoTime(deps.clock.now());
      const event: StoredEvent = {
        id: newId(),
        organizationId: input.organizationId,
        type: input.type,
        emailId: input.emailId ?? null,
        recipient: input.recipient ?? null,
        data: input.data ?? {},
        createdAt,
      };
      tx.insert(events).values(event).run();
      if (event.emailId && event.type.startsWith("email.")) {
        tx.update(emails).set({ status: event.type.slice("email.".length), updatedAt: createdAt }).where(eq(emails.id, event.emailId)).run();
      }
      for (const listener of listeners) listener(tx, event);
      return event;
    },
    onAppend(listener) {
      listeners.push(listener);
    },
  };
}
