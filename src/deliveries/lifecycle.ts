/**
 * A recipient's fate: the states of one delivery (one recipient of one message) and every cause that moves it, as a
 * table, and the one `apply` that carries a cause out. Design note:
 *
 * - States. A delivery is born `queued` (due now or at its scheduled time) or `suppressed` at acceptance
 *   (emails/intake.ts inserts it, through emails/repo.ts; nothing else does). While it waits it is `queued`,
 *   `deferred` (an attempt failed for now; the next is planned) or `held` (a pause applies; not attempted). It ends
 *   `sent` (a smarthost or SES took it), `delivered`, `bounced`, `complained`, `failed` or `canceled` — though
 *   `sent` and `delivered` still hear of bounces and complaints that arrive later by mail or from the provider.
 * - Causes. Who may move a delivery: the worker's attempts (deliveries/attempts.ts), reports received on the MX
 *   (deliveries/reports.ts), the provider's own events (deliveries/provider-events.ts, and the simulator's complaint
 *   through the worker), the sender or operator cancelling (emails/service.ts), the removal of the sending domain
 *   (domains/service.ts), pauses (held, released) and the operator's queue actions (deliveries/queue.ts). Each
 *   cause is one row of `TRANSITIONS`: the states it may come from, the state it goes to (or none: only the history
 *   hears of it), the event it appends and the suppression it adds.
 * - One writer. `apply` is the only code that writes `deliveries.status` after acceptance (a test greps `src/` for
 *   any other). It runs in the caller's transaction: a move is one UPDATE conditional on the status being one of the
 *   row's `from` (it waits for a concurrent write of the row and checks what that left: PostgreSQL re-reads the row,
 *   SQLite's single writer serialises already), and only when it moved does it append the event and add the
 *   suppression — together or not at all; a cause that moves nothing reads the row locked (FOR UPDATE) instead. A cause that
 *   finds the recipient elsewhere changes nothing and says so: a late report about a bounced recipient, a result
 *   recorded after the domain was removed.
 * - Scope. Most causes concern one recipient (named by its delivery id) and append their event for that recipient.
 *   Cancelling and domain removal concern a message: every recipient of it in `from` moves, and the event is the
 *   message's, appended once without a recipient (as one webhook per message has always announced them).
 */
import { and, eq, sql } from "drizzle-orm";
import { executeRaw, inJsonArray, lockedForUpdate, updateFromJsonRows } from "../db/dialect.ts";
import { forRows, perConnection, prepareAs } from "../db/prepared.ts";
import { tablesOf, type Db } from "../db/store.ts";
import type { EventType } from "../events/model.ts";
import type { EventLog } from "../events/service.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import type { SuppressionService } from "../suppressions/service.ts";
import { RECIPIENT_STATUSES, type RecipientStatus } from "./model.ts";
import { requestNotice, type NoticeAction } from "./status-notices.ts";

export interface Transition {
  on: string;
  from: readonly RecipientStatus[];
  /** Null: the status stays; only the recipient's history records the cause. */
  to: RecipientStatus | null;
  event: EventType;
  suppress?: "bounce" | "complaint";
  /** `message`: the cause moves every recipient of one message in `from`, and its event is the message's. */
  scope: "recipient" | "message";
  /** The delivery status notification the move is (status-notices.ts), for a relayed recipient that asked for it. */
  report?: NoticeAction;
}

/** A recipient's cause whose move is reported to a relayed message's sender when it asked (status-notices.ts). */
const reports = <A extends NoticeAction>(report: A) => ({ scope: "recipient" as const, report });

/** Waiting for an attempt. */
const WAITING: readonly RecipientStatus[] = ["queued", "deferred"];
/** Left, or leaving, and not yet judged: a report or a provider's bounce may still say what became of it. */
const REPORTABLE: readonly RecipientStatus[] = ["queued", "deferred", "sent", "delivered"];
/** Not yet reported delivered by the provider that took it. */
const IN_TRANSIT: readonly RecipientStatus[] = ["queued", "deferred", "sent"];
/** A complaint stands whatever became of the delivery before; only a repeated one changes nothing. */
const COMPLAINABLE = RECIPIENT_STATUSES.filter((status) => status !== "complained");
/** Not taken yet: what a cancel or a removed domain still stops. */
const NOT_TAKEN: readonly RecipientStatus[] = ["queued", "deferred", "held"];

export const TRANSITIONS = [
  // The worker's attempts (a 2xx, a 4xx or fault, a 5xx; remote replies classified by providers/classify.ts).
  { on: "attempt.delivered", from: WAITING, to: "delivered", event: "email.delivered", ...reports("delivered") },
  // RFC 3464 §2.3.3: handed to a smarthost or SES, which sends no notification back to the relay's client.
  { on: "attempt.sent", from: WAITING, to: "sent", event: "email.sent", ...reports("relayed") },
  { on: "attempt.temporary", from: WAITING, to: "deferred", event: "email.delivery_delayed", ...reports("delayed") },
  // A temporary failure past the retry table's end bounces (Transient): the address may still be good.
  { on: "attempt.retries_exhausted", from: WAITING, to: "bounced", event: "email.bounced", ...reports("failed") },
  {
    on: "attempt.permanent",
    from: WAITING,
    to: "bounced",
    event: "email.bounced",
    suppress: "bounce",
    ...reports("failed"),
  },
  // Reports received on the MX: delivery status notifications (RFC 3464) and feedback reports (RFC 5965).
  {
    on: "report.bounce",
    from: REPORTABLE,
    to: "bounced",
    event: "email.bounced",
    suppress: "bounce",
    ...reports("failed"),
  },
  // A notification that decides nothing (no 5.x.x, no 4.x.x) is kept in the history and moves no one.
  { on: "report.bounce_undetermined", from: REPORTABLE, to: null, event: "email.bounced", scope: "recipient" },
  // The remote side is still retrying: the history says so, the status stays.
  { on: "report.delay", from: REPORTABLE, to: null, event: "email.delivery_delayed", scope: "recipient" },
  {
    on: "report.complaint",
    from: COMPLAINABLE,
    to: "complained",
    event: "email.complained",
    suppress: "complaint",
    scope: "recipient",
  },
  // The provider's events (SES through SNS).
  { on: "provider.delivered", from: IN_TRANSIT, to: "delivered", event: "email.delivered", scope: "recipient" },
  {
    on: "provider.bounce_permanent",
    from: REPORTABLE,
    to: "bounced",
    event: "email.bounced",
    suppress: "bounce",
    ...reports("failed"),
  },
  // SES bounces only once it gave up (a Transient bounce after its own retries): final, but the address may be good.
  { on: "provider.bounce", from: REPORTABLE, to: "bounced", event: "email.bounced", ...reports("failed") },
  { on: "provider.delay", from: IN_TRANSIT, to: null, event: "email.delivery_delayed", scope: "recipient" },
  {
    on: "provider.complaint",
    from: COMPLAINABLE,
    to: "complained",
    event: "email.complained",
    suppress: "complaint",
    scope: "recipient",
  },
  { on: "provider.reject", from: IN_TRANSIT, to: "failed", event: "email.failed", ...reports("failed") },
  // The sender or the operator stops a message before it was taken (docs/sending.md, docs/operations.md).
  { on: "canceled", from: NOT_TAKEN, to: "canceled", event: "email.canceled", scope: "message" },
  // Its sending domain was removed (with force) while it waited: it can no longer be signed or sent.
  { on: "domain_removed", from: NOT_TAKEN, to: "failed", event: "email.failed", scope: "message" },
  // Pauses (docs/operations.md): accepted but not attempted while one applies; on release it is due again at once.
  { on: "held", from: WAITING, to: "held", event: "email.held", scope: "recipient" },
  { on: "released", from: ["held"], to: "queued", event: "email.queued", scope: "recipient" },
  // The operator's queue actions (docs/operations.md), one recipient at a time: a deferred one is due again at once (its
  // attempts so far still count), a waiting one is stopped.
  { on: "retried", from: ["deferred"], to: "queued", event: "email.queued", scope: "recipient" },
  { on: "recipient_canceled", from: NOT_TAKEN, to: "canceled", event: "email.canceled", scope: "recipient" },
] as const satisfies readonly Transition[];

type Row = (typeof TRANSITIONS)[number];
export type Cause = Row["on"];
type MessageCause = Extract<Row, { scope: "message" }>["on"];

/** Whom a cause concerns: one recipient by its delivery, or the recipients of one message. */
export type Target<C extends Cause> = C extends MessageCause ? { emailId: string } : { deliveryId: string };

/** What a cause brings besides the move itself. */
export interface Change {
  /** The event's data. */
  data?: Record<string, unknown>;
  /** The reply or reason kept as the recipient's last response; also the suppression's reason unless `reason` says. */
  response?: string;
  /** The suppression's reason, where it differs from `response`. */
  reason?: string;
  /** An attempt's record: its count, the provider that made it, the id that provider gave, the next attempt's time. */
  attempt?: { attempts: number; provider: string; providerMessageId: string | null; nextAttemptAt: number | null };
}

export type Applied =
  /** The event was appended; `changed` recipients moved (none where the cause only records, or found none in `from`). */
  | { outcome: "applied"; changed: number }
  /** The recipient is in a state the cause may not move (already judged, or never sent): nothing was written. */
  | { outcome: "refused"; status: RecipientStatus }
  /** No such delivery (or message): nothing was written. */
  | { outcome: "unknown" };

/** The worker's causes: what became of an attempt. */
export type AttemptCause = Extract<Cause, `attempt.${string}`>;

/** One attempt's result, as the worker records it. */
export interface AttemptResult {
  on: AttemptCause;
  deliveryId: string;
  change: Change & { attempt: NonNullable<Change["attempt"]> };
}

export interface Lifecycle {
  /** Carries out cause `on` for `target` in the caller's transaction `tx`; the only writer of a recipient's status. */
  apply<C extends Cause>(tx: Db, on: C, target: Target<C>, change?: Change): Promise<Applied>;
  /**
   * Carries out many attempts' results in `tx` (the worker's of one turn), each as `apply` would: on PostgreSQL the
   * moves are one statement and their events one insert. Answers each result's outcome, in order.
   */
  applyAttempts(tx: Db, results: readonly AttemptResult[]): Promise<Applied[]>;
}

const ROWS = new Map<Cause, Row>(TRANSITIONS.map((row) => [row.on, row]));
const AWAITS_ATTEMPT: ReadonlySet<RecipientStatus> = new Set(["queued"]);

/** Every delivery attempt and report runs these: prepared once per connection. */
const statementsFor = perConnection((tx: Db) => {
  const { deliveries } = tablesOf(tx);
  const slot = <T>(name: string) => sql.placeholder(name) as unknown as T;
  const columns = {
    id: deliveries.id,
    status: deliveries.status,
    organizationId: deliveries.organizationId,
    emailId: deliveries.emailId,
    recipient: deliveries.recipient,
    dsnNotify: deliveries.dsnNotify,
  };
  return {
    // Locked: the worker recording a result and a report about the same delivery take turns.
    recipient: prepareAs(
      "recipient_lock",
      lockedForUpdate(
        tx,
        tx
          .select(columns)
          .from(deliveries)
          .where(eq(deliveries.id, sql.placeholder("id"))),
      ),
    ),
    message: prepareAs(
      "recipient_lock_message",
      lockedForUpdate(
        tx,
        tx
          .select(columns)
          .from(deliveries)
          .where(eq(deliveries.emailId, sql.placeholder("emailId"))),
      ),
    ),
    saveAttempt: prepareAs(
      "recipient_save_attempt",
      tx
        .update(deliveries)
        .set({
          status: slot<string>("status"),
          attempts: slot<number>("attempts"),
          nextAttemptAt: slot<number | null>("nextAttemptAt"),
          leaseOwner: null,
          leaseUntil: null,
          lastResponse: slot<string>("lastResponse"),
          provider: slot<string>("provider"),
          providerMessageId: slot<string | null>("providerMessageId"),
          updatedAt: slot<string>("updatedAt"),
        })
        .where(
          and(eq(deliveries.id, sql.placeholder("id")), inJsonArray(tx, deliveries.status, sql.placeholder("from"))),
        )
        .returning(columns),
    ),
    // Any other move: the lease goes (a final state is never claimed again) and a missing response keeps the last.
    settle: prepareAs(
      "recipient_settle",
      tx
        .update(deliveries)
        .set({
          status: slot<string>("status"),
          nextAttemptAt: slot<number | null>("nextAttemptAt"),
          leaseOwner: null,
          leaseUntil: null,
          lastResponse: sql`COALESCE(${sql.placeholder("lastResponse")}, ${deliveries.lastResponse})`,
          updatedAt: slot<string>("updatedAt"),
        })
        .where(
          and(eq(deliveries.id, sql.placeholder("id")), inJsonArray(tx, deliveries.status, sql.placeholder("from"))),
        )
        .returning(columns),
    ),
  };
});

interface Locked {
  id: string;
  status: string;
  organizationId: string;
  emailId: string;
  recipient: string;
  dsnNotify: string | null;
}

export function createLifecycle(deps: { events: EventLog; suppressions: SuppressionService; clock: Clock }): Lifecycle {
  const { events, suppressions, clock } = deps;

  /**
   * Moves the recipient `id` to `to` if its status is still one of `from`, in one statement (an UPDATE
   * waits for a concurrent one on the row and then checks the status it finds: PostgreSQL re-reads the row); the
   * recipient as it now is, or undefined when it was not moved.
   */
  const move = async (tx: Db, to: RecipientStatus, allowed: readonly RecipientStatus[], id: string, change: Change) => {
    const statements = statementsFor(tx);
    const now = clock.now();
    const from = JSON.stringify(allowed);
    const [moved] = change.attempt
      ? await statements.saveAttempt.execute({
          id,
          from,
          status: to,
          attempts: change.attempt.attempts,
          nextAttemptAt: change.attempt.nextAttemptAt,
          lastResponse: change.response ?? "",
          provider: change.attempt.provider,
          providerMessageId: change.attempt.providerMessageId,
          updatedAt: isoTime(now),
        })
      : await statements.settle.execute({
          id,
          from,
          status: to,
          nextAttemptAt: AWAITS_ATTEMPT.has(to) ? now : null,
          lastResponse: change.response?.slice(0, 1000) ?? null,
          updatedAt: isoTime(now),
        });
    return moved;
  };

  const suppress = async (tx: Db, row: Row, delivery: Locked, change: Change) => {
    if (!("suppress" in row)) return;
    await suppressions.addInTransaction(tx, delivery.organizationId, {
      email: delivery.recipient,
      origin: row.suppress,
      sourceId: delivery.emailId,
      reason: change.reason ?? change.response,
    });
  };

  /** Asks for the move's status notification, when the row is one and the recipient's sender asked for it. */
  const notice = (tx: Db, row: Row, delivery: Locked, change: Change) =>
    "report" in row ? requestNotice(tx, row.report, delivery, change.response, clock.now()) : undefined;

  const allows = (row: Row, status: string) => (row.from as readonly string[]).includes(status);

  /** Why a recipient that did not move stayed: gone, or in a state the cause may not move. */
  const unmoved = async (tx: Db, id: string): Promise<Applied> => {
    const [delivery] = await statementsFor(tx).recipient.execute({ id });
    return delivery ? { outcome: "refused", status: delivery.status as RecipientStatus } : { outcome: "unknown" };
  };

  /** Each result's move, as `move` makes it: row by row on SQLite, in one statement per slice on PostgreSQL. */
  const moveAttempts = (tx: Db, results: readonly AttemptResult[]) => {
    const updatedAt = isoTime(clock.now());
    const rows = results.map(({ on, deliveryId, change }) => {
      const row = ROWS.get(on)!;
      return {
        id: deliveryId,
        from: JSON.stringify(row.from),
        status: row.to,
        attempts: change.attempt.attempts,
        nextAttemptAt: change.attempt.nextAttemptAt,
        lastResponse: change.response ?? "",
        provider: change.attempt.provider,
        providerMessageId: change.attempt.providerMessageId,
        updatedAt,
      };
    });
    return forRows<(typeof rows)[number], Locked>(tx, rows, {
      each: (row) => statementsFor(tx).saveAttempt.execute(row),
      many: (slice) => executeRaw<Locked>(tx, saveAttempts(slice)),
    });
  };

  const lifecycle: Lifecycle = {
    async apply(tx, on, target, change = {}) {
      const row = ROWS.get(on)!;
      const statements = statementsFor(tx);
      if ("deliveryId" in target) {
        // A move is one conditional statement; only a refusal, or a cause that moves nothing, reads the row first.
        const moved = row.to === null ? undefined : await move(tx, row.to, row.from, target.deliveryId, change);
        let delivery: Locked | undefined = moved;
        if (!moved) {
          if (row.to !== null) return unmoved(tx, target.deliveryId);
          [delivery] = await statements.recipient.execute({ id: target.deliveryId });
          if (!delivery) return { outcome: "unknown" };
          if (!allows(row, delivery.status)) return { outcome: "refused", status: delivery.status as RecipientStatus };
        }
        await events.append(tx, {
          organizationId: delivery!.organizationId,
          emailId: delivery!.emailId,
          recipient: delivery!.recipient,
          type: row.event,
          data: change.data,
        });
        await suppress(tx, row, delivery!, change);
        if (moved) await notice(tx, row, moved, change);
        return { outcome: "applied", changed: moved ? 1 : 0 };
      }
      const recipients = await statements.message.execute({ emailId: target.emailId });
      if (!recipients.length) return { outcome: "unknown" };
      const moving = recipients.filter((delivery) => allows(row, delivery.status));
      if (row.to !== null) for (const delivery of moving) await move(tx, row.to, row.from, delivery.id, change);
      await events.append(tx, {
        organizationId: recipients[0]!.organizationId,
        emailId: target.emailId,
        type: row.event,
        data: change.data,
      });
      for (const delivery of moving) await suppress(tx, row, delivery, change);
      return { outcome: "applied", changed: moving.length };
    },

    async applyAttempts(tx, results) {
      // One result per recipient: the worker never has one recipient in flight twice, and a statement moving a row
      // twice would apply only one of them.
      if (new Set(results.map((result) => result.deliveryId)).size < results.length) {
        const outcomes: Applied[] = [];
        for (const { on, deliveryId, change } of results)
          outcomes.push(await lifecycle.apply(tx, on, { deliveryId }, change));
        return outcomes;
      }
      const moved = new Map((await moveAttempts(tx, results)).map((delivery) => [delivery.id, delivery]));
      await events.appendMany(
        tx,
        results.flatMap(({ on, deliveryId, change }) => {
          const delivery = moved.get(deliveryId);
          if (!delivery) return [];
          const { organizationId, emailId, recipient } = delivery;
          return [{ organizationId, emailId, recipient, type: ROWS.get(on)!.event, data: change.data }];
        }),
      );
      const outcomes: Applied[] = [];
      for (const { on, deliveryId, change } of results) {
        const delivery = moved.get(deliveryId);
        if (!delivery) {
          outcomes.push(await unmoved(tx, deliveryId));
          continue;
        }
        await suppress(tx, ROWS.get(on)!, delivery, change);
        await notice(tx, ROWS.get(on)!, delivery, change);
        outcomes.push({ outcome: "applied", changed: 1 });
      }
      return outcomes;
    },
  };
  return lifecycle;
}

/**
 * PostgreSQL: `saveAttempt` for many recipients in one statement, the rows passed as one JSON parameter; each moves
 * only if its status is still one of its `from`.
 */
const saveAttempts = (rows: object[]) =>
  updateFromJsonRows({
    table: "deliveries",
    key: "id",
    rowKey: "id",
    columns: `id text, "from" text, status text, attempts integer, "nextAttemptAt" bigint, "lastResponse" text,
      provider text, "providerMessageId" text, "updatedAt" text`,
    rows,
    set: `status = v.status, attempts = v.attempts, next_attempt_at = v."nextAttemptAt", lease_owner = NULL,
      lease_until = NULL, last_response = v."lastResponse", provider = v.provider,
      provider_message_id = v."providerMessageId", updated_at = v."updatedAt"`,
    where: `deliveries.status IN (SELECT json_array_elements_text(v."from"::json))`,
    returning: `deliveries.id, deliveries.status, deliveries.organization_id AS "organizationId",
      deliveries.email_id AS "emailId", deliveries.recipient, deliveries.dsn_notify AS "dsnNotify"`,
  });
