/**
 * The recipient's lifecycle table (src/deliveries/lifecycle.ts), one test per row, against a real store: from a
 * state the row allows, `apply` writes the state it names and the columns the cause carries, appends its event and
 * adds its suppression; from a state it does not allow, it writes nothing and says which state it found. A row
 * without an example fails.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { type Cause, type Change, TRANSITIONS } from "../src/deliveries/lifecycle.ts";
import { RECIPIENT_STATUSES, type RecipientStatus } from "../src/deliveries/model.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
});
afterAll(() => t.close());

const attempt = (attempts: number, nextAttemptAt: number | null) => ({
  attempts,
  provider: "relay",
  providerMessageId: "ses-1",
  nextAttemptAt,
});
const RETRY_AT = 1_900_000_000_000;

/** Each row's cause as its caller brings it, and the recipient's columns afterwards (besides its status). */
const EXAMPLES: Array<{ on: Cause; change: Change; columns?: Record<string, unknown> }> = [
  {
    on: "attempt.delivered",
    change: { response: "250 2.0.0 OK", attempt: attempt(1, null) },
    columns: { attempts: 1, next_attempt_at: null, last_response: "250 2.0.0 OK", provider: "relay" },
  },
  {
    on: "attempt.sent",
    change: { response: "250 Ok: queued", attempt: attempt(2, null) },
    columns: { attempts: 2, provider_message_id: "ses-1" },
  },
  {
    on: "attempt.temporary",
    change: { response: "451 4.7.1 greylisted", attempt: attempt(1, RETRY_AT) },
    columns: { attempts: 1, next_attempt_at: RETRY_AT, last_response: "451 4.7.1 greylisted" },
  },
  {
    on: "attempt.retries_exhausted",
    change: { response: "451 4.3.0 still busy", attempt: attempt(9, null) },
    columns: { attempts: 9, next_attempt_at: null },
  },
  {
    on: "attempt.permanent",
    change: { response: "550 5.1.1 user unknown", attempt: attempt(1, null) },
    columns: { last_response: "550 5.1.1 user unknown" },
  },
  { on: "report.bounce", change: { response: "smtp; 550 5.1.1 user unknown" }, columns: { next_attempt_at: null } },
  { on: "report.bounce_undetermined", change: { data: { bounce: { type: "Undetermined" } } } },
  { on: "report.delay", change: { data: { response: "4.4.7 delayed" } } },
  { on: "report.complaint", change: { reason: "feedback report: abuse" }, columns: { last_response: null } },
  { on: "provider.delivered", change: { response: "250 delivered by SES" }, columns: { next_attempt_at: null } },
  { on: "provider.bounce_permanent", change: { response: "550 5.1.1 no such user" } },
  { on: "provider.bounce", change: { response: "SES gave up" } },
  { on: "provider.delay", change: { data: { delay_type: "MailboxFull" } } },
  { on: "provider.complaint", change: { reason: "feedback report: abuse" } },
  { on: "provider.reject", change: { response: "SES rejected the message: Bad content" } },
  {
    on: "canceled",
    change: { response: "canceled before sending" },
    columns: { next_attempt_at: null, last_response: "canceled before sending" },
  },
  { on: "domain_removed", change: { response: "sending domain deleted before delivery", data: { reason: "gone" } } },
  { on: "held", change: {}, columns: { next_attempt_at: null } },
  { on: "released", change: {}, columns: { next_attempt_at: "now" } },
  { on: "retried", change: { response: "retried by the operator" }, columns: { next_attempt_at: "now" } },
  { on: "recipient_canceled", change: { response: "canceled by the operator" }, columns: { next_attempt_at: null } },
];

let sequence = 0;
/** A scheduled message (never claimed by a worker) to a fresh recipient, and its delivery id. */
const recipientIn = async (status: RecipientStatus) => {
  const recipient = `r${++sequence}@dest.test`;
  const sent = await t.json("POST", "/v1/emails", {
    body: {
      from: "a@example.com",
      to: [recipient],
      subject: "s",
      text: "t",
      scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  const store = t.app.services.store;
  await store.query(sql`UPDATE deliveries SET status = ${status} WHERE email_id = ${sent.body.id}`);
  const [row] = await store.query<{ id: string }>(sql`SELECT id FROM deliveries WHERE email_id = ${sent.body.id}`);
  return { emailId: sent.body.id as string, deliveryId: row!.id, recipient };
};

const deliveryOf = async (id: string) =>
  (
    await t.app.services.store.query<Record<string, unknown>>(
      sql`SELECT status, attempts, next_attempt_at, last_response, provider, provider_message_id FROM deliveries WHERE id = ${id}`,
    )
  )[0]!;
const eventsOf = (emailId: string) =>
  t.app.services.store.query<{ type: string; recipient: string | null }>(
    sql`SELECT type, recipient FROM events WHERE email_id = ${emailId} AND type NOT IN ('email.scheduled') ORDER BY created_at, id`,
  );
const suppressed = async (email: string) =>
  (await t.app.services.store.query(sql`SELECT id FROM suppressions WHERE email = ${email}`)).length > 0;

const apply = (on: Cause, target: { deliveryId: string } | { emailId: string }, change: Change) =>
  t.app.services.writer.write((tx) => t.app.services.lifecycle.apply(tx, on, target as never, change));

const numbersOf = (row: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value,
    ]),
  );

describe("a recipient's lifecycle", () => {
  for (const row of TRANSITIONS) {
    const example = EXAMPLES.find((e) => e.on === row.on);
    const from = row.from[0]!;
    const outside = RECIPIENT_STATUSES.find((status) => !(row.from as readonly string[]).includes(status))!;
    const moves = row.to === null ? `leaves it ${from}` : `moves it to ${row.to}`;
    const suppresses = "suppress" in row ? `, suppresses the address (${row.suppress})` : "";

    test(`${row.on}: from ${from} ${moves}, appends ${row.event}${suppresses}; from ${outside} it changes nothing`, async () => {
      if (!example) throw new Error(`no example for ${row.on}`);
      const delivery = await recipientIn(from);
      const target = row.scope === "message" ? { emailId: delivery.emailId } : { deliveryId: delivery.deliveryId };
      const before = Date.now();
      const applied = await apply(row.on, target, example.change);
      expect(applied).toEqual({ outcome: "applied", changed: row.to === null ? 0 : 1 });

      const after = numbersOf(await deliveryOf(delivery.deliveryId));
      expect(after.status).toBe(row.to ?? from);
      for (const [column, value] of Object.entries(example.columns ?? {})) {
        if (value === "now") expect(after[column] as number).toBeGreaterThanOrEqual(before);
        else expect(after[column]).toEqual(value);
      }
      expect(await eventsOf(delivery.emailId)).toEqual([
        { type: row.event, recipient: row.scope === "message" ? null : delivery.recipient },
      ]);
      expect(await suppressed(delivery.recipient)).toBe("suppress" in row);

      const elsewhere = await recipientIn(outside);
      const unchanged = await deliveryOf(elsewhere.deliveryId);
      const refused = await apply(
        row.on,
        row.scope === "message" ? { emailId: elsewhere.emailId } : { deliveryId: elsewhere.deliveryId },
        example.change,
      );
      expect(await deliveryOf(elsewhere.deliveryId)).toEqual(unchanged);
      expect(await suppressed(elsewhere.recipient)).toBe(false);
      if (row.scope === "message") {
        // The message's event still says what became of it; no recipient of it moved.
        expect(refused).toEqual({ outcome: "applied", changed: 0 });
        expect(await eventsOf(elsewhere.emailId)).toEqual([{ type: row.event, recipient: null }]);
      } else {
        expect(refused).toEqual({ outcome: "refused", status: outside });
        expect(await eventsOf(elsewhere.emailId)).toEqual([]);
      }
    });
  }

  test("every row of the table has an example", () => {
    const covered = new Set(EXAMPLES.map((e) => e.on));
    expect(TRANSITIONS.map((row) => row.on).filter((on) => !covered.has(on))).toEqual([]);
  });

  test("a cause for a delivery that does not exist changes nothing and says so", async () => {
    expect(await apply("report.bounce", { deliveryId: "0190f3a2-0000-7000-8000-000000000000" }, {})).toEqual({
      outcome: "unknown",
    });
  });

  test("the worker's results of one turn, applied together, each do what apply does alone", async () => {
    const delivered = await recipientIn("queued");
    const retried = await recipientIn("deferred");
    const rejected = await recipientIn("queued");
    const judged = await recipientIn("bounced");
    const judgedBefore = await deliveryOf(judged.deliveryId);
    const gone = "0190f3a2-0000-7000-8000-0000000000ff";
    const outcomes = await t.app.services.writer.write((tx) =>
      t.app.services.lifecycle.applyAttempts(tx, [
        { on: "attempt.delivered", deliveryId: delivered.deliveryId, change: EXAMPLES[0]!.change as never },
        { on: "attempt.temporary", deliveryId: retried.deliveryId, change: EXAMPLES[2]!.change as never },
        { on: "attempt.delivered", deliveryId: judged.deliveryId, change: EXAMPLES[0]!.change as never },
        { on: "attempt.permanent", deliveryId: rejected.deliveryId, change: EXAMPLES[4]!.change as never },
        { on: "attempt.delivered", deliveryId: gone, change: EXAMPLES[0]!.change as never },
      ]),
    );
    expect(outcomes).toEqual([
      { outcome: "applied", changed: 1 },
      { outcome: "applied", changed: 1 },
      { outcome: "refused", status: "bounced" },
      { outcome: "applied", changed: 1 },
      { outcome: "unknown" },
    ]);
    expect(numbersOf(await deliveryOf(delivered.deliveryId))).toMatchObject({
      status: "delivered",
      ...EXAMPLES[0]!.columns,
    });
    expect(numbersOf(await deliveryOf(retried.deliveryId))).toMatchObject({
      status: "deferred",
      ...EXAMPLES[2]!.columns,
    });
    expect(numbersOf(await deliveryOf(rejected.deliveryId))).toMatchObject({
      status: "bounced",
      ...EXAMPLES[4]!.columns,
    });
    expect(await deliveryOf(judged.deliveryId)).toEqual(judgedBefore);
    for (const [{ emailId, recipient }, type] of [
      [delivered, "email.delivered"],
      [retried, "email.delivery_delayed"],
      [rejected, "email.bounced"],
    ] as const) {
      expect(await eventsOf(emailId)).toEqual([{ type, recipient }]);
      const [message] = await t.app.services.store.query<{ status: string }>(
        sql`SELECT status FROM emails WHERE id = ${emailId}`,
      );
      expect(message!.status).toBe(type.slice("email.".length));
    }
    expect(await eventsOf(judged.emailId)).toEqual([]);
    expect(await suppressed(rejected.recipient)).toBe(true);
    expect(await suppressed(delivered.recipient)).toBe(false);
  });

  test("a message-wide cause moves only the recipients in its states, and announces the message once", async () => {
    const sent = await t.json("POST", "/v1/emails", {
      body: {
        from: "a@example.com",
        to: ["m1@dest.test", "m2@dest.test"],
        subject: "s",
        text: "t",
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    const store = t.app.services.store;
    await store.query(sql`UPDATE deliveries SET status = 'suppressed' WHERE recipient = 'm2@dest.test'`);
    expect(await apply("canceled", { emailId: sent.body.id }, {})).toEqual({ outcome: "applied", changed: 1 });
    const statuses = await store.query<{ recipient: string; status: string }>(
      sql`SELECT recipient, status FROM deliveries WHERE email_id = ${sent.body.id} ORDER BY recipient`,
    );
    expect(statuses).toEqual([
      { recipient: "m1@dest.test", status: "canceled" },
      { recipient: "m2@dest.test", status: "suppressed" },
    ]);
    expect(await eventsOf(sent.body.id)).toEqual([{ type: "email.canceled", recipient: null }]);
  });
});
