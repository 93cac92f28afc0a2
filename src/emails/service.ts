/**
 * The one funnel for outgoing mail: `submit` (and `submitBatch`) serve the HTTP API, the CLI and the SMTP relay.
 * It applies the sending policy (scope, verified From domain, recipient limit, size, suppressions), composes the
 * MIME once (on the CPU pool), and stores message + one delivery row per recipient + events in one durable write.
 * Invariant: when `submit` resolves, the message is committed to disk and will be delivered (or is recorded as
 * suppressed); when it throws, nothing was stored.
 */
import { and, asc, desc, eq, getTableColumns, gt, lt, sql, type SQL } from "drizzle-orm";
import { ASIDE_CONTENT_BYTES, type StagedContent } from "../db/content-writes.ts";
import { hasTag, notifyAtCommit } from "../db/dialect.ts";
import { perConnection, placeholders, prepareAs } from "../db/prepared.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import type { Lifecycle } from "../deliveries/lifecycle.ts";
import type { RecipientStatus } from "../deliveries/model.ts";
import type { DomainService } from "../domains/service.ts";
import { AppError, validationError } from "../errors.ts";
import type { EventLog } from "../events/service.ts";
import { requireScope } from "../keys/service.ts";
import type { Actor } from "../keys/model.ts";
import { addressKey, domainOf, formatMailbox, normalizeAddress, type Mailbox } from "../lib/addresses.ts";
import type { Idempotency, IdempotencyClaim } from "../idempotency/service.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { DELIVERIES_DUE } from "../queue/channels.ts";
import type { SuppressionService } from "../suppressions/service.ts";
import { composeRequest, type ComposedMessage, type ComposeRequest, type MessageDecorations } from "./compose.ts";
import type {
  ComposedFields,
  EmailRecord,
  EmailSource,
  EmailStatus,
  EmailSummary,
  RawInput,
  SubmitInput,
  Tag,
} from "./model.ts";
import { assertTransmittable, finalizeRawMessage, singleFrom, type RawMessageView } from "./raw-message.ts";
import type { AttachmentFetcher } from "./remote-attachments.ts";
import { parseScheduledAt } from "./validate.ts";

export interface EmailLimits {
  maxRecipients: number;
  maxMessageBytes: number;
  maxBatchSize: number;
}

export interface SubmitOptions {
  idempotency?: IdempotencyClaim;
}

export interface ListOptions {
  limit: number;
  after?: string;
  before?: string;
  status?: string;
  to?: string;
  from?: string;
  tag?: string;
}

export interface EmailService {
  submit(input: SubmitInput, actor: Actor, options?: SubmitOptions): Promise<{ id: string }>;
  /** All or nothing: every message is validated before any is stored. */
  /**
   * All or nothing; `permissive`: the valid messages are stored and the others answered as `errors` by index. An
   * input may be the AppError its fields already failed with (the route's template rendering).
   */
  submitBatch(
    inputs: Array<SubmitInput | AppError>,
    actor: Actor,
    options?: SubmitOptions & { permissive?: boolean },
  ): Promise<{ data: Array<{ id: string }>; errors?: Array<{ index: number; message: string }> }>;
  /** Moves a scheduled message to another time (ISO 8601, future, ≤ 30 days); 409 once it is no longer scheduled. */
  reschedule(actor: Actor, id: string, scheduledAt: unknown): Promise<{ object: "email"; id: string }>;
  get(actor: Actor, id: string): Promise<EmailRecord>;
  list(actor: Actor, options: ListOptions): Promise<{ object: "list"; data: EmailSummary[]; has_more: boolean }>;
  raw(actor: Actor, id: string): Promise<{ raw: Buffer; messageId: string }>;
  cancel(actor: Actor, id: string): Promise<{ object: "email"; id: string; status: "canceled" }>;
}

interface PreparedMessage {
  id: string;
  organizationId: string;
  apiKeyId: string | null;
  source: EmailSource;
  mode: Actor["mode"];
  messageId: string;
  fromHeader: string;
  envelopeFrom: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  html: string | null;
  text: string | null;
  tags: Tag[];
  scheduledAt?: number;
  templateId: string | null;
  raw: Buffer;
  /** Distinct envelope recipients, in the order given. */
  recipients: string[];
  suppressed: Set<string>;
}

function distinctAddresses(mailboxes: Mailbox[]): string[] {
  const seen = new Map<string, string>();
  for (const m of mailboxes) if (!seen.has(addressKey(m.address))) seen.set(addressKey(m.address), m.address);
  return [...seen.values()];
}

/**
 * The record's copy of a text (the MIME keeps the original bytes): NUL becomes U+FFFD, which both engines store —
 * PostgreSQL text and jsonb cannot hold NUL, and a decoded part may contain one.
 */
const recordable = (value: string) => (value.includes("\0") ? value.replaceAll("\0", "\uFFFD") : value);

/** The states every message passes through, left out of SQLite's status index (migration 11). */
const PASSING_STATES: ReadonlySet<string> = new Set(["queued", "sent", "delivered"]);
/** The index's condition as a literal in the SQL (a bound list would not let SQLite prove the index applies). */
const NOT_PASSING = sql.raw(`NOT IN (${[...PASSING_STATES].map((state) => `'${state}'`).join(", ")})`);

/** Accepting a message is the hot path: its inserts are prepared once per connection. */
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
          ]),
        ),
    ),
  };
});

export function createEmailService(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  events: EventLog;
  suppressions: SuppressionService;
  /** Moves a canceled message's recipients (deliveries/lifecycle.ts). */
  lifecycle: Lifecycle;
  domains: DomainService;
  idempotency: Idempotency;
  limits: EmailLimits;
  /** Called with the number of messages just committed, to wake the delivery worker. */
  onAccepted: (count: number) => void;
  /** Composes the MIME message (on the CPU pool, off the event loop). */
  compose: (request: ComposeRequest) => Promise<ComposedMessage>;
  /** `readRawMessage` on the CPU pool: a submitted message may be tens of megabytes. */
  readSubmitted: (raw: Buffer) => Promise<RawMessageView>;
  /** Fills in attachments given by `path` (remote-attachments.ts). */
  fetchAttachments: AttachmentFetcher;
  /** Tracking links, open pixel and unsubscribe URL for a message about to be composed (src/tracking). */
  decorate?: (emailId: string, actor: Actor, fields: ComposedFields) => Promise<MessageDecorations | undefined>;
}): EmailService {
  const { db, writer, clock, events, suppressions, domains, idempotency, limits } = deps;
  const { deliveries, emailContents, emails, events: eventsTable } = tablesOf(db);

  /** The recipient policy shared by every input kind: the limit, then suppressions (all suppressed → refused). */
  const admitRecipients = async (actor: Actor, recipients: string[]): Promise<Set<string>> => {
    if (recipients.length > limits.maxRecipients) {
      throw validationError([
        { path: "to", message: `at most ${limits.maxRecipients} distinct recipients per message` },
      ]);
    }
    const suppressed = await suppressions.suppressedAmong(actor.organizationId, recipients);
    if (suppressed.size === recipients.length) {
      throw new AppError("domain_not_verified", "Every recipient is on the suppression list; nothing was sent.");
    }
    return suppressed;
  };

  const assertSize = (bytes: number) => {
    if (bytes > limits.maxMessageBytes)
      throw new AppError("payload_too_large", `The message is ${bytes} bytes; the limit is ${limits.maxMessageBytes}.`);
  };

  /** Who sent a message and how: the same for every input kind. */
  const origin = (id: string, actor: Actor, source: EmailSource) => ({
    id,
    organizationId: actor.organizationId,
    apiKeyId: actor.keyId,
    source,
    mode: actor.mode,
  });

  /**
   * A message received as MIME (SMTP): the policy reads the From header and the envelope recipients; the bytes
   * are stored as sent apart from Bcc, Idempotency-Key, and a missing Message-ID or Date (see raw-message.ts).
   */
  const prepareRaw = async (input: RawInput, actor: Actor): Promise<PreparedMessage> => {
    assertSize(input.raw.length);
    assertTransmittable(input.raw);
    const view = await deps.readSubmitted(input.raw);
    const from = singleFrom(view);
    await domains.assertMaySendFrom(actor, domainOf(from.address));
    for (const sender of view.sender) await domains.assertMaySendFrom(actor, domainOf(sender.address));
    const envelope = input.envelope.to.map((address, i) => {
      const normalized = normalizeAddress(address);
      if ("error" in normalized) throw validationError([{ path: `to.${i}`, message: normalized.error }]);
      return { name: "", address: normalized.address };
    });
    if (envelope.length === 0) throw validationError([{ path: "to", message: "the envelope names no recipient" }]);
    const recipients = distinctAddresses(envelope);
    const suppressed = await admitRecipients(actor, recipients);
    const id = newId();
    const finalized = finalizeRawMessage(input.raw, {
      messageId: `<${id}@${domainOf(from.address)}>`,
      date: new Date(clock.now()),
    });
    assertSize(finalized.raw.length);
    // Recipients on the envelope but in neither To nor Cc were blind copies.
    const shown = new Set([...view.to, ...view.cc].map((m) => addressKey(m.address)));
    return {
      ...origin(id, actor, input.source),
      messageId: finalized.messageId,
      fromHeader: formatMailbox(from),
      envelopeFrom: from.address,
      to: view.to.map(formatMailbox),
      cc: view.cc.map(formatMailbox),
      bcc: recipients.filter((r) => !shown.has(addressKey(r))),
      replyTo: view.replyTo.map(formatMailbox),
      subject: view.subject,
      html: view.html,
      text: view.text,
      tags: [],
      templateId: null,
      raw: finalized.raw,
      recipients,
      suppressed,
    };
  };

  /**
   * What attachments given by `path` may add up to in one request: one message's size limit, for a whole batch too,
   * so that a small JSON batch cannot make the server hold a hundred messages' worth of downloads.
   */
  const fetchBudget = () => ({ left: limits.maxMessageBytes });

  const prepare = async (input: SubmitInput, actor: Actor, budget: { left: number }): Promise<PreparedMessage> => {
    if (input.kind === "raw") return prepareRaw(input, actor);
    await domains.assertMaySendFrom(actor, domainOf(input.fields.from.address));
    if (input.fields.sender) await domains.assertMaySendFrom(actor, domainOf(input.fields.sender.address));
    const recipients = distinctAddresses([...input.fields.to, ...input.fields.cc, ...input.fields.bcc]);
    const suppressed = await admitRecipients(actor, recipients);
    // Last of the checks, since it is the one that goes out to the network.
    const given = input.fields.attachments;
    const inline = given.reduce((sum, attachment) => sum + attachment.content.length, 0);
    const attachments = await deps.fetchAttachments(given, Math.min(limits.maxMessageBytes - inline, budget.left));
    budget.left -= attachments.reduce((sum, attachment) => sum + attachment.content.length, 0) - inline;
    const fields = { ...input.fields, attachments };
    const id = newId();
    const composed = await deps.compose(
      composeRequest(id, fields, clock.now(), await deps.decorate?.(id, actor, fields)),
    );
    assertSize(composed.raw.length);
    return {
      ...origin(id, actor, input.source),
      messageId: composed.messageId,
      fromHeader: formatMailbox(fields.from),
      envelopeFrom: fields.from.address,
      to: fields.to.map(formatMailbox),
      cc: fields.cc.map(formatMailbox),
      bcc: fields.bcc.map(formatMailbox),
      replyTo: fields.replyTo.map(formatMailbox),
      subject: fields.subject,
      html: fields.html,
      text: composed.text,
      tags: fields.tags,
      scheduledAt: fields.scheduledAt,
      templateId: fields.templateId ?? null,
      raw: composed.raw,
      recipients,
      suppressed,
    };
  };

  /**
   * Stages large bodies ahead of their records (db/content-writes.ts) and returns what is left for the records'
   * transaction: `persist` for each message, and `discard` should that transaction fail.
   */
  const stageBodies = async (messages: PreparedMessage[]) => {
    const staged = new Map<string, StagedContent>();
    const discard = async () => {
      for (const body of staged.values()) await body.discard();
    };
    try {
      for (const message of writer.stageContent ? messages : []) {
        if (message.raw.length >= ASIDE_CONTENT_BYTES)
          staged.set(message.id, await writer.stageContent!("email_contents", message.id, message.raw));
      }
    } catch (error) {
      await discard();
      throw error;
    }
    return { persist: (tx: Db, message: PreparedMessage) => persist(tx, message, staged.get(message.id)), discard };
  };

  /** Inserts one prepared message with its deliveries and first events; runs inside a writer transaction. */
  const persist = async (tx: Db, message: PreparedMessage, stagedBody?: StagedContent) => {
    const now = clock.now();
    const createdAt = isoTime(now);
    const statements = insertStatements(tx);
    await statements.email.execute({
      id: message.id,
      organizationId: message.organizationId,
      apiKeyId: message.apiKeyId,
      source: message.source,
      mode: message.mode,
      messageId: message.messageId,
      fromHeader: recordable(message.fromHeader),
      envelopeFrom: message.envelopeFrom,
      to: message.to.map(recordable),
      cc: message.cc.map(recordable),
      bcc: message.bcc,
      replyTo: message.replyTo.map(recordable),
      subject: recordable(message.subject),
      html: message.html === null ? null : recordable(message.html),
      text: message.text === null ? null : recordable(message.text),
      tags: message.tags,
      status: message.scheduledAt ? "scheduled" : "queued",
      scheduledAt: message.scheduledAt ? isoTime(message.scheduledAt) : null,
      size: message.raw.length,
      templateId: message.templateId,
      createdAt,
      updatedAt: createdAt,
    });
    if (stagedBody) await stagedBody.place(tx);
    else await statements.content.execute({ emailId: message.id, raw: message.raw });
    const dueAt = message.scheduledAt ?? now;
    for (const recipient of message.recipients) {
      const suppressed = message.suppressed.has(addressKey(recipient));
      await statements.delivery.execute({
        id: newId(),
        emailId: message.id,
        organizationId: message.organizationId,
        recipient,
        destination: domainOf(recipient),
        status: suppressed ? "suppressed" : "queued",
        nextAttemptAt: suppressed ? null : dueAt,
        lastResponse: suppressed ? "recipient is on the suppression list" : null,
        createdAt,
        updatedAt: createdAt,
      });
    }
    const base = { organizationId: message.organizationId, emailId: message.id };
    for (const recipient of message.recipients) {
      if (message.suppressed.has(addressKey(recipient)))
        await events.append(tx, { ...base, type: "email.suppressed", recipient, data: { reason: "suppressed" } });
    }
    await events.append(
      tx,
      message.scheduledAt
        ? { ...base, type: "email.scheduled", data: { scheduled_at: isoTime(message.scheduledAt) } }
        : { ...base, type: "email.queued" },
    );
  };

  const ownEmail = async (actor: Actor, id: string) => {
    const [row] = await lookups.email.execute({ id, organizationId: actor.organizationId });
    // A test key's sandbox (DESIGN §3): live mail does not exist for it.
    if (!row || (actor.mode === "test" && row.mode !== "test")) throw new AppError("not_found", "Email not found.");
    return row;
  };

  const summary = (row: Omit<typeof emails.$inferSelect, "html" | "text">): EmailSummary => ({
    object: "email",
    id: row.id,
    message_id: row.messageId,
    source: row.source,
    from: row.fromHeader,
    to: row.to,
    cc: row.cc,
    bcc: row.bcc,
    reply_to: row.replyTo,
    subject: row.subject,
    tags: row.tags,
    status: row.status as EmailStatus,
    last_event: row.status as EmailStatus,
    created_at: row.createdAt,
    scheduled_at: row.scheduledAt ?? null,
    template_id: row.templateId ?? null,
  });

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
    execute(values: ListParameters): Promise<Array<Omit<typeof emails.$inferSelect, "html" | "text">>>;
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
    async submit(input, actor, options = {}) {
      requireScope(actor, "emails:send");
      const message = await prepare(input, actor, fetchBudget());
      const response = { id: message.id };
      const bodies = await stageBodies([message]);
      await writer
        .write(async (tx) => {
          await bodies.persist(tx, message);
          await notifyAtCommit(tx, DELIVERIES_DUE);
          if (options.idempotency) await idempotency.record(tx, options.idempotency, response);
        })
        .catch(async (error) => {
          await bodies.discard();
          throw error;
        });
      deps.onAccepted(1);
      return response;
    },

    async submitBatch(inputs, actor, options = {}) {
      requireScope(actor, "emails:send");
      if (inputs.length === 0 || inputs.length > limits.maxBatchSize) {
        throw validationError([{ path: "", message: `a batch holds 1 to ${limits.maxBatchSize} messages` }]);
      }
      const prepared: PreparedMessage[] = [];
      const errors: Array<{ index: number; message: string }> = [];
      const budget = fetchBudget();
      for (const [i, input] of inputs.entries()) {
        try {
          if (input instanceof AppError) throw input;
          prepared.push(await prepare(input, actor, budget));
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          // Permissive: the valid messages are sent and each refused one is named by its index (Resend's shape).
          if (options.permissive) {
            errors.push({
              index: i,
              message: error.details?.length
                ? error.details.map((d) => `${d.path}: ${d.message}`).join("; ")
                : error.message,
            });
            continue;
          }
          if (error.details)
            throw new AppError(error.name, error.message, {
              details: error.details.map((d) => ({ path: `${i}${d.path ? `.${d.path}` : ""}`, message: d.message })),
            });
          throw new AppError(error.name, `Message ${i}: ${error.message}`);
        }
      }
      const response = { data: prepared.map((m) => ({ id: m.id })), ...(options.permissive ? { errors } : {}) };
      const bodies = await stageBodies(prepared);
      await writer
        .write(async (tx) => {
          for (const message of prepared) await bodies.persist(tx, message);
          await notifyAtCommit(tx, DELIVERIES_DUE);
          if (options.idempotency) await idempotency.record(tx, options.idempotency, response);
        })
        .catch(async (error) => {
          await bodies.discard();
          throw error;
        });
      if (prepared.length) deps.onAccepted(prepared.length);
      return response;
    },

    async get(actor, id) {
      requireScope(actor, "emails:read");
      const row = await ownEmail(actor, id);
      const recipients = await lookups.deliveries.execute({ id });
      const history = await lookups.events.execute({ id });
      return {
        ...summary(row),
        html: row.html ?? null,
        text: row.text ?? null,
        recipients: recipients.map((d) => ({
          email: d.recipient,
          status: d.status as RecipientStatus,
          attempts: d.attempts,
          last_response: d.lastResponse ?? null,
          provider: d.provider ?? null,
          provider_message_id: d.providerMessageId ?? null,
          updated_at: d.updatedAt,
        })),
        events: history.map((e) => ({
          type: e.type,
          created_at: e.createdAt,
          recipient: e.recipient ?? null,
          data: e.data,
        })),
      };
    },

    async list(actor, options) {
      requireScope(actor, "emails:read");
      const rows = await listPage(actor, options);
      const page = rows.slice(0, options.limit);
      if (options.before && !options.after) page.reverse();
      return { object: "list", data: page.map(summary), has_more: rows.length > options.limit };
    },

    async raw(actor, id) {
      requireScope(actor, "emails:read");
      const row = await ownEmail(actor, id);
      // A large body is read off the event loop where the store can (db/content-writes.ts).
      const raw =
        row.size >= ASIDE_CONTENT_BYTES && writer.readContent
          ? await writer.readContent("email_contents", id)
          : (
              await first(
                db.select({ raw: emailContents.raw }).from(emailContents).where(eq(emailContents.emailId, id)),
              )
            )?.raw;
      return { raw: raw!, messageId: row.messageId };
    },

    async reschedule(actor, id, scheduledAt) {
      requireScope(actor, "emails:send");
      await ownEmail(actor, id);
      const at = parseScheduledAt(scheduledAt, clock.now());
      if ("problem" in at) throw validationError([{ path: "scheduled_at", message: at.problem }]);
      const refusal = await writer.write(async (tx): Promise<string | null> => {
        const row = (await first(
          tx
            .select({ status: emails.status, organizationId: emails.organizationId })
            .from(emails)
            .where(eq(emails.id, id)),
        ))!;
        if (row.status !== "scheduled") return `Only scheduled emails can be rescheduled; this one is ${row.status}.`;
        const now = clock.now();
        const leased = await first(
          tx
            .select({ id: deliveries.id })
            .from(deliveries)
            .where(and(eq(deliveries.emailId, id), gt(deliveries.leaseUntil, now))),
        );
        if (leased) return "This email is being sent and can no longer be rescheduled.";
        await tx
          .update(emails)
          .set({ scheduledAt: isoTime(at.time), updatedAt: isoTime(now) })
          .where(eq(emails.id, id));
        await tx
          .update(deliveries)
          .set({ nextAttemptAt: at.time, updatedAt: isoTime(now) })
          .where(and(eq(deliveries.emailId, id), eq(deliveries.status, "queued")));
        await events.append(tx, {
          organizationId: row.organizationId,
          emailId: id,
          type: "email.scheduled",
          data: { scheduled_at: isoTime(at.time) },
        });
        return null;
      });
      if (refusal) throw new AppError("conflict", refusal);
      return { object: "email", id };
    },

    async cancel(actor, id) {
      requireScope(actor, "emails:send");
      await ownEmail(actor, id);
      const refusal = await writer.write(async (tx): Promise<string | null> => {
        const row = (await first(tx.select({ status: emails.status }).from(emails).where(eq(emails.id, id))))!;
        if (row.status !== "scheduled") return `Only scheduled emails can be canceled; this one is ${row.status}.`;
        const now = clock.now();
        const leased = await first(
          tx
            .select({ id: deliveries.id })
            .from(deliveries)
            .where(and(eq(deliveries.emailId, id), gt(deliveries.leaseUntil, now))),
        );
        if (leased) return "This email is being sent and can no longer be canceled.";
        await deps.lifecycle.apply(tx, "canceled", { emailId: id }, { response: "canceled before sending" });
        return null;
      });
      if (refusal) throw new AppError("conflict", refusal);
      return { object: "email", id, status: "canceled" };
    },
  };
}
