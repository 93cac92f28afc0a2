/**
 * The one funnel for outgoing mail: `submit` (and `submitBatch`) serve the HTTP API, the CLI and the SMTP relay.
 * A message passes named steps: `admitFrom` (the sending policy of its From and Sender domains),
 * `admitRecipients` (the recipient limit, then suppressions), composition (once, on the CPU pool), `assertSize`,
 * the daily quotas, then `persist`: message + one delivery row per recipient + events in one durable write.
 * Invariant: when `submit` resolves, the message is committed to disk and will be delivered (or is recorded as
 * suppressed); when it throws, nothing was stored.
 */
import type { Actor } from "../access.ts";
import { requireScope } from "../access.ts";
import { ASIDE_CONTENT_BYTES } from "../db/content-writes.ts";
import { notifyAtCommit } from "../db/dialect.ts";
import type { Db, StagedContent, Writer } from "../db/store.ts";
import type { DomainService } from "../domains/service.ts";
import { AppError, validationError } from "../errors.ts";
import type { EventLog } from "../events/service.ts";
import type { Idempotency, IdempotencyClaim } from "../idempotency/service.ts";
import type { DailyQuotas } from "../limits/daily-quota.ts";
import { perTurn, writeTogetherOrAlone } from "../lib/turn-batch.ts";
import { addressKey, domainOf, formatMailbox, normalizeAddress, type Mailbox } from "../lib/addresses.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { DELIVERIES_DUE } from "../queue/channels.ts";
import { SIMULATOR_DOMAIN, simulatedOutcome, unknownSimulatorAddress } from "../providers/simulator.ts";
import type { SuppressionService } from "../suppressions/service.ts";
import type { MessageDecorations } from "../tracking/decorations.ts";
import { composeRequest, type ComposedMessage, type ComposeRequest } from "./compose.ts";
import type { ComposedFields, EmailSource, RawInput, SubmitInput } from "./model.ts";
import { assertTransmittable, finalizeRawMessage, singleFrom, type RawMessageView } from "./raw-message.ts";
import type { AttachmentFetcher } from "./remote-attachments.ts";
import { insertAccepted } from "./repo.ts";
import { distinctAddresses, emailRow, type Acceptance, type PreparedMessage } from "./intake-rows.ts";

export interface EmailLimits {
  maxRecipients: number;
  maxMessageBytes: number;
  maxBatchSize: number;
}

export interface SubmitOptions {
  idempotency?: IdempotencyClaim;
}

export interface EmailIntake {
  submit(input: SubmitInput, actor: Actor, options?: SubmitOptions): Promise<{ id: string }>;
  /**
   * All or nothing; `permissive`: the valid messages are stored and the others answered as `errors` by index. An
   * input may be the AppError its fields already failed with (the route's template rendering).
   */
  submitBatch(
    inputs: Array<SubmitInput | AppError>,
    actor: Actor,
    options?: SubmitOptions & { permissive?: boolean },
  ): Promise<{ data: Array<{ id: string }>; errors?: Array<{ index: number; message: string }> }>;
}

export interface IntakeDeps {
  writer: Writer;
  clock: Clock;
  events: EventLog;
  suppressions: SuppressionService;
  domains: DomainService;
  idempotency: Idempotency;
  limits: EmailLimits;
  /** Called with the number of messages just committed, to wake the delivery worker. */
  onAccepted: (count: number) => void;
  /** Composes the MIME message (on the CPU pool, off the event loop); `tenant`: the sending organisation. */
  compose: (request: ComposeRequest, tenant: string) => Promise<ComposedMessage>;
  /** `readRawMessage` on the CPU pool: a submitted message may be tens of megabytes. */
  readSubmitted: (raw: Buffer, tenant: string) => Promise<RawMessageView>;
  /** Fills in attachments given by `path` (remote-attachments.ts). */
  fetchAttachments: AttachmentFetcher;
  /** The daily quotas an acceptance counts against (limits/daily-quota.ts). */
  quotas: DailyQuotas;
  /** Tracking links, open pixel and unsubscribe URL for a message about to be composed (src/tracking). */
  decorate?: (emailId: string, actor: Actor, fields: ComposedFields) => Promise<MessageDecorations | undefined>;
}

export function createEmailIntake(deps: IntakeDeps): EmailIntake {
  const { writer, clock, events, suppressions, domains, idempotency, limits } = deps;

  /** The sending policy of a message's From (and Sender) domain: verified for live keys, within a key's domains. */
  const admitFrom = async (actor: Actor, from: Mailbox, senders: readonly Mailbox[]) => {
    await domains.assertMaySendFrom(actor, domainOf(from.address));
    for (const sender of senders) await domains.assertMaySendFrom(actor, domainOf(sender.address));
  };

  /**
   * The recipient policy shared by every input kind: the limit, test addresses that rehearse nothing, then
   * suppressions (all suppressed → refused).
   */
  const admitRecipients = async (actor: Actor, recipients: string[]): Promise<Set<string>> => {
    if (recipients.length > limits.maxRecipients) {
      throw validationError([
        { path: "to", message: `at most ${limits.maxRecipients} distinct recipients per message` },
      ]);
    }
    const unknown = recipients.map(unknownSimulatorAddress).filter((refusal) => refusal !== undefined);
    if (unknown.length) throw validationError(unknown.map((message) => ({ path: "to", message })));
    const suppressed = await suppressions.suppressedAmong(actor.organizationId, recipients);
    if (suppressed.size === recipients.length) {
      // The interface specification's rule: a message none of whose recipients may receive it is refused whole, with
      // domain_not_verified (docs/errors.md#rules). The simulator's suppressed@ obeys it as a real one.
      const rehearsal = recipients.some((r) => simulatedOutcome(r) === "suppressed")
        ? ` suppressed@${SIMULATOR_DOMAIN} is always on it: send it beside another recipient to see it recorded suppressed.`
        : "";
      throw new AppError(
        "domain_not_verified",
        `Every recipient is on the suppression list, so nothing was sent: a message needs at least one recipient who is not.${rehearsal}`,
      );
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
    const view = await deps.readSubmitted(input.raw, actor.organizationId);
    const from = singleFrom(view);
    await admitFrom(actor, from, view.sender);
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
    await admitFrom(actor, input.fields.from, input.fields.sender ? [input.fields.sender] : []);
    const recipients = distinctAddresses([...input.fields.to, ...input.fields.cc, ...input.fields.bcc]);
    const suppressed = await admitRecipients(actor, recipients);
    // Last of the checks, since it is the one that goes out to the network.
    const given = input.fields.attachments;
    const inline = given.reduce((sum, attachment) => sum + attachment.content.length, 0);
    const attachments = await deps.fetchAttachments(given, Math.min(limits.maxMessageBytes - inline, budget.left));
    budget.left -= attachments.reduce((sum, attachment) => sum + attachment.content.length, 0) - inline;
    const fields = { ...input.fields, attachments };
    const id = newId();
    const request = composeRequest(id, fields, clock.now(), await deps.decorate?.(id, actor, fields));
    const composed = await deps.compose(request, actor.organizationId);
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
   * Stages large bodies ahead of their records (db/content-writes.ts): the records' transaction places them, or
   * `discard` removes them should it fail.
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
    return { staged, discard };
  };

  /**
   * Inserts the messages of every acceptance in `group` with their deliveries and first events, a few multi-row
   * inserts for them all, and records each acceptance's idempotency key; runs inside one writer transaction.
   */
  const persist = async (tx: Db, group: Acceptance[]) => {
    const now = clock.now();
    const createdAt = isoTime(now);
    const messages = group.flatMap((acceptance) => acceptance.messages);
    const contents: Array<{ emailId: string; raw: Buffer }> = [];
    const staged: StagedContent[] = [];
    for (const acceptance of group)
      for (const message of acceptance.messages) {
        const body = acceptance.bodies.get(message.id);
        if (body) staged.push(body);
        else contents.push({ emailId: message.id, raw: message.raw });
      }
    const deliveries = messages.flatMap((message) =>
      message.recipients.map((recipient) => {
        const suppressed = message.suppressed.has(addressKey(recipient));
        return {
          id: newId(),
          emailId: message.id,
          organizationId: message.organizationId,
          recipient,
          destination: domainOf(recipient),
          status: suppressed ? "suppressed" : "queued",
          nextAttemptAt: suppressed ? null : (message.scheduledAt ?? now),
          lastResponse: suppressed ? "recipient is on the suppression list" : null,
          createdAt,
          updatedAt: createdAt,
        };
      }),
    );
    await insertAccepted(tx, { emails: messages.map((message) => emailRow(message, createdAt)), contents, deliveries });
    for (const body of staged) await body.place(tx);
    // The message rows were inserted with the status of each message's last event (queued or scheduled).
    await events.appendRecorded(
      tx,
      messages.flatMap((message) => {
        const base = { organizationId: message.organizationId, emailId: message.id };
        return [
          ...message.recipients
            .filter((recipient) => message.suppressed.has(addressKey(recipient)))
            .map((recipient) => ({
              ...base,
              type: "email.suppressed" as const,
              recipient,
              data: { reason: "suppressed" },
            })),
          message.scheduledAt
            ? { ...base, type: "email.scheduled" as const, data: { scheduled_at: isoTime(message.scheduledAt) } }
            : { ...base, type: "email.queued" as const },
        ];
      }),
    );
    // One wake-up of the other instances per group commit (this one's worker is woken by `onAccepted`).
    await notifyAtCommit(tx, DELIVERIES_DUE);
    for (const acceptance of group)
      if (acceptance.idempotency) await idempotency.record(tx, acceptance.idempotency, acceptance.response);
  };

  /**
   * Group commit of acceptances: those that reach this point in one event-loop turn are written in one
   * transaction, with multi-row inserts; should it fail, each is written again alone, so that one acceptance's
   * failure is its own. Each promise settles after its messages' COMMIT (docs/sending.md: a 200 means committed).
   */
  const acceptTogether = perTurn<Acceptance>(
    (group) =>
      void writeTogetherOrAlone(group, {
        write: (acceptances) => writer.write((tx) => persist(tx, acceptances)),
        written: (acceptances) => {
          const accepted = acceptances.reduce((sum, acceptance) => sum + acceptance.messages.length, 0);
          if (accepted) deps.onAccepted(accepted);
          for (const acceptance of acceptances) acceptance.resolve();
        },
        failed: async (acceptance, error) => {
          await acceptance.discard();
          acceptance.reject(error);
        },
      }),
  );
  const accept = async (
    actor: Actor,
    messages: PreparedMessage[],
    idempotencyClaim: IdempotencyClaim | undefined,
    response: unknown,
  ) => {
    // Counted against the daily quotas before anything is written; given back should the acceptance fail.
    const admission = await deps.quotas.admit(actor, messages.length);
    const giveBack = (error: unknown) => {
      admission.release();
      throw error;
    };
    const { staged, discard } = await stageBodies(messages).catch(giveBack);
    return new Promise<void>((resolve, reject) =>
      acceptTogether({
        messages,
        bodies: staged,
        discard,
        idempotency: idempotencyClaim,
        response,
        resolve,
        reject: (error) => {
          admission.release();
          reject(error);
        },
      }),
    );
  };

  return {
    async submit(input, actor, options = {}) {
      requireScope(actor, "emails:send");
      const message = await prepare(input, actor, fetchBudget());
      const response = { id: message.id };
      await accept(actor, [message], options.idempotency, response);
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
      await accept(actor, prepared, options.idempotency, response);
      return response;
    },
  };
}
