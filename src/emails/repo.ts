/**
 * The emails area's queries: the inserts of acceptance (the hot path) and the look-ups and list pages
 * dashboards poll. Invariant: every read is scoped to one organisation, and a test key's pages hold test-mode mail
 * only, by a literal condition both engines match to the partial index of test-mode mail (migration 12).
 */
import { and, asc, desc, eq, getTableColumns, gt, lt, sql, type SQL } from "drizzle-orm";
import type { Actor } from "../access.ts";
import { hasTag } from "../db/dialect.ts";
import { forRows, insertMany, perConnection, placeholders, prepareAs, ROWS_PER_INSERT } from "../db/prepared.ts";
import type {
  deliveries as deliveriesTable,
  emails as emailsTable,
  relayEnvelopes as relayEnvelopesTable,
} from "../db/schema/index.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import type { ListOptions } from "./model.ts";

/** A message's record without its html and text: what lists and look-ups start from. */
export type EmailSummaryRow = Omit<typeof emailsTable.$inferSelect, "html" | "text">;

/** The states every message passes through, left out of SQLite's status index (migration 11). */
const PASSING_STATES: ReadonlySet<string> = new Set(["queued", "sent", "delivered"]);
/** The index's condition as a literal in the SQL (a bound list would not let SQLite prove the index applies). */
const NOT_PASSING = sql.raw(`NOT IN (${[...PASSING_STATES].map((state) => `'${state}'`).join(", ")})`);

/** Bytes of message bodies per insert: one insert never makes the event loop copy more than this at once. */
const CONTENT_BYTES_PER_INSERT = 4 * 1024 * 1024;

type EmailInsert = typeof emailsTable.$inferInsert;
type DeliveryInsert = typeof deliveriesTable.$inferInsert;

/** SQLite's inserts of acceptance, prepared once per connection (see `insertAccepted`). */
const insertStatements = perConnection((tx: Db) => {
  const { deliveries, emailContents, emails } = tablesOf(tx);
  return {
    email: prepareAs(
      "email_insert",
      tx
        .insert(emails)
        .values(
          placeholders([
            "id",
            "organizationId",
            "apiKeyId",
            "source",
            "mode",
            "messageId",
            "fromHeader",
            "envelopeFrom",
            "to",
            "cc",
            "bcc",
            "replyTo",
            "subject",
            "html",
            "text",
            "tags",
            "status",
            "scheduledAt",
            "size",
            "templateId",
            "lane",
            "topicId",
            "broadcastId",
            "contactId",
            "createdAt",
            "updatedAt",
          ]),
        ),
    ),
    content: prepareAs("email_content_insert", tx.insert(emailContents).values(placeholders(["emailId", "raw"]))),
    delivery: prepareAs(
      "delivery_insert",
      tx
        .insert(deliveries)
        .values(
          placeholders([
            "id",
            "emailId",
            "organizationId",
            "recipient",
            "destination",
            "status",
            "nextAttemptAt",
            "lastResponse",
            "createdAt",
            "updatedAt",
            "dsnNotify",
            "dsnOrcpt",
            "lane",
          ]),
        ),
    ),
  };
});

/**
 * Acceptance's inserts (the hot path), for every message accepted together (one group commit), each table's rows in
 * the engine's cheaper form (db/prepared.ts `forRows`): PostgreSQL's multi-row inserts hold at most
 * CONTENT_BYTES_PER_INSERT of bodies each (one larger body goes alone; bodies of 1 MiB and more were staged and are
 * placed apart, db/content-writes.ts).
 */
export async function insertAccepted(
  tx: Db,
  rows: {
    emails: EmailInsert[];
    contents: Array<{ emailId: string; raw: Buffer }>;
    deliveries: DeliveryInsert[];
    /** Relayed messages asking for delivery status notifications (relay-dsn.ts): rare, inserted apart. */
    relayEnvelopes?: Array<typeof relayEnvelopesTable.$inferInsert>;
  },
): Promise<void> {
  const { deliveries, emailContents, emails, relayEnvelopes } = tablesOf(tx);
  const prepared = () => insertStatements(tx);
  await forRows(tx, rows.emails, {
    each: (row) => prepared().email.execute(row),
    many: (slice) => insertMany(tx, emails, slice),
  });
  await forRows(tx, rows.contents, {
    each: (row) => prepared().content.execute(row),
    many: (slice) => insertMany(tx, emailContents, slice),
    slices: byteSlices,
  });
  await forRows(tx, rows.deliveries, {
    each: (row) => prepared().delivery.execute(row),
    many: (slice) => insertMany(tx, deliveries, slice),
  });
  if (rows.relayEnvelopes?.length) await tx.insert(relayEnvelopes).values(rows.relayEnvelopes);
}

/** Body rows in inserts of at most ROWS_PER_INSERT rows and CONTENT_BYTES_PER_INSERT bytes (one row may be more). */
function byteSlices(rows: ReadonlyArray<{ emailId: string; raw: Buffer }>) {
  const slices: Array<Array<(typeof rows)[number]>> = [];
  let bytes = 0;
  for (const row of rows) {
    const last = slices.at(-1);
    if (!last || last.length >= ROWS_PER_INSERT || bytes + row.raw.length > CONTENT_BYTES_PER_INSERT) {
      slices.push([row]);
      bytes = row.raw.length;
    } else {
      last.push(row);
      bytes += row.raw.length;
    }
  }
  return slices;
}

/** Look-ups and list pages over one store; the statements are prepared once. */
export function createEmailQueries(db: Db) {
  const { deliveries, emailContents, emails, events: eventsTable } = tablesOf(db);
  const { html: _html, text: _text, ...summaryColumns } = getTableColumns(emails);

  // The look-up and the list are what dashboards poll: prepared once, like the send path's statements.
  const byId = sql.placeholder("id");
  const lookups = {
    email: prepareAs(
      "email_by_id",
      db
        .select()
        .from(emails)
        .where(and(eq(emails.id, byId), eq(emails.organizationId, sql.placeholder("organizationId")))),
    ),
    deliveries: prepareAs(
      "email_deliveries",
      db.select().from(deliveries).where(eq(deliveries.emailId, byId)).orderBy(asc(deliveries.id)),
    ),
    events: prepareAs(
      "email_events",
      db.select().from(eventsTable).where(eq(eventsTable.emailId, byId)).orderBy(asc(eventsTable.id)),
    ),
  };
  type ListParameters = ReturnType<typeof listParameters>;
  type ListStatement = {
    execute(values: ListParameters): Promise<EmailSummaryRow[]>;
  };
  const listParameters = (actor: Actor, options: ListOptions) => ({
    organizationId: actor.organizationId,
    after: options.after,
    before: options.before,
    status: options.status,
    from: options.from?.toLowerCase(),
    to: options.to?.toLowerCase(),
    limit: options.limit + 1,
  });
  /** What a page is asked for: the filters, and whether only test-mode mail is visible (a test key's sandbox). */
  type PageQuery = ListOptions & { testModeOnly: boolean };
  /** The page's query; `value` gives each parameter, as a placeholder (prepared) or as the value itself. */
  const listQuery = (options: PageQuery, value: (name: keyof ListParameters) => unknown) => {
    const conditions: SQL[] = [eq(emails.organizationId, value("organizationId") as string)];
    // A literal, not a parameter, so that both engines use the partial index of test-mode mail (migration 12).
    if (options.testModeOnly) conditions.push(sql`${emails.mode} = 'test'`);
    if (options.after) conditions.push(lt(emails.id, value("after") as string));
    if (options.before) conditions.push(gt(emails.id, value("before") as string));
    if (options.status) {
      conditions.push(eq(emails.status, value("status") as string));
      // Stated in the SQL's own words, so SQLite may use its partial status index (migration 11) with the status bound.
      if (!PASSING_STATES.has(options.status)) conditions.push(sql`${emails.status} ${NOT_PASSING}`);
    }
    if (options.from) conditions.push(sql`lower(${emails.envelopeFrom}) = ${value("from")}`);
    // Driven by the recipient index (migration 11): the few messages to that address, not every message tested.
    if (options.to)
      conditions.push(
        sql`${emails.id} IN (SELECT d.email_id FROM deliveries d WHERE d.organization_id = ${value("organizationId")} AND lower(d.recipient) = ${value("to")})`,
      );
    if (options.tag) {
      const [name, tagValue] = options.tag.split(":", 2);
      conditions.push(hasTag(db, emails.tags, name!, tagValue));
    }
    // `before` pages towards newer messages: read ascending from the cursor, then present newest first.
    return db
      .select(summaryColumns)
      .from(emails)
      .where(and(...conditions))
      .orderBy(options.before && !options.after ? asc(emails.id) : desc(emails.id))
      .limit(value("limit") as number);
  };
  /** One prepared statement per combination of filters; a tag filter's SQL differs by engine and value, so it is built per call. */
  const listStatements = new Map<string, ListStatement>();
  const listPage = (actor: Actor, filters: ListOptions) => {
    const options: PageQuery = { ...filters, testModeOnly: actor.mode === "test" };
    const parameters = listParameters(actor, options);
    if (options.tag) return listQuery(options, (name) => parameters[name]);
    // The filters present decide the SQL, the order included (it follows from `after` and `before`).
    const signature =
      (["testModeOnly", "after", "before", "status", "from", "to"] as const).filter((name) => options[name]).join(",") +
      (options.status && !PASSING_STATES.has(options.status) ? ",rare" : "");
    let statement = listStatements.get(signature);
    if (!statement) {
      statement = prepareAs(
        `email_list_${listStatements.size}`,
        listQuery(options, (name) => sql.placeholder(name)),
      ) as unknown as ListStatement;
      listStatements.set(signature, statement);
    }
    return statement.execute(parameters);
  };

  return {
    /** The organisation's message `id`, or undefined. */
    email: async (organizationId: string, id: string) => (await lookups.email.execute({ id, organizationId }))[0],
    recipientsOf: (id: string) => lookups.deliveries.execute({ id }),
    eventsOf: (id: string) => lookups.events.execute({ id }),
    listPage,
    /** The stored MIME of a message read in the record's own engine (small bodies; see content-writes.ts). */
    rawContent: async (id: string) =>
      (await first(db.select({ raw: emailContents.raw }).from(emailContents).where(eq(emailContents.emailId, id))))
        ?.raw,
  };
}
