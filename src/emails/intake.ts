/**
 * The one funnel for outgoing mail: `submit` (and `submitBatch`) serve the HTTP API, the CLI and the SMTP relay.
 * A message passes named steps: `admitFrom` (the sending policy of its From and Sender domains),
 * `admitRecipients` (the recipient limit, then suppressions, then the choices of its topic's audience: one query per
 * message, docs/contacts-preferences.md#sending-with-a-topic), composition (once, on the CPU pool), `assertSize`,
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
import type { ComposedFields, EmailSource, ForwardInput, RawInput, SubmitInput, SystemMailKind } from "./model.ts";
import { assertTransmittable, finalizeRawMessage, relayTopic, singleFrom, type RawMessageView } from "./raw-message.ts";
import type { AttachmentFetcher } from "./remote-attachments.ts";
import { insertAccepted } from "./repo.ts";
import { resolveRelayDsn } from "./relay-dsn.ts";
import {
  acceptedEvents,
  deliveryRows,
  distinctAddresses,
  emailRow,
  type Acceptance,
  type PreparedMessage,
} from "./intake-rows.ts";

export interface EmailLimits {
  maxRecipients: number;
  maxMessageBytes: number;
  maxBatchSize: number;
}

export interface SubmitOptions {
  idempotency?: IdempotencyClaim;
  /** Mail Mailroom sends for itself (system-mail.ts alone): no daily quota counts it (docs/teams.md#system-mail). */
  system?: SystemMailKind;
}

export interface EmailIntake {
  submit(input: SubmitInput, actor: Actor, options?: SubmitOptions): Promise<{ id: string }>;
  /**
   * All or nothing; `permissive`: the valid messages are stored and the others answered as `errors` by index. An
   * input may be the AppError its fields already failed with (the route's template rendering). `concurrently`: the
   * messages are prepared together, not one after another (a broadcast's fan-out: nothing to fetch, composition on
   * the CPU pool's threads at once); they are still written in one transaction.
   */
  submitBatch(
    inputs: Array<SubmitInput | AppError>,
    actor: Actor,
    options?: SubmitOptions & { permissive?: boolean; concurrently?: boolean },
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
  /**
   * Of `recipients`, the address keys of those unsubscribed from `topicId` (docs/contacts-preferences.md), in one
   * query; throws a validation error naming `topic_id` when the organisation has no such topic. Absent: no topic
   * exists anywhere, so every `topic_id` is refused.
   */
  topicChoices?: (organizationId: string, topicId: string, recipients: string[]) => Promise<Set<string>>;
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
   * suppressions (all suppressed → refused), then the topic's choices: who left it is recorded suppressed, even
   * every recipient — a preference, not the caller's fault, so the send is still accepted (docs/contacts-preferences.md).
   */
  const admitRecipients = async (
    actor: Actor,
    recipients: string[],
    topicId: string | undefined,
  ): Promise<{ suppressed: Set<string>; leftTopic: Set<string> }> => {
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
    if (topicId === undefined) return { suppressed, leftTopic: new Set() };
    if (!deps.topicChoices) throw validationError([{ path: "topic_id", message: `no topic has the id "${topicId}"` }]);
    return { suppressed, leftTopic: await deps.topicChoices(actor.organizationId, topicId, recipients) };
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
    const topicId = relayTopic(input.raw);
    // The relay's client named the topic in a header: a problem with it names that header.
    const { suppressed, leftTopic } = await admitRecipients(actor, recipients, topicId).catch((error: unknown) => {
      if (!(error instanceof AppError) || error.name !== "validation_error" || !error.details) throw error;
      throw validationError(error.details.map((d) => (d.path === "topic_id" ? { ...d, path: "X-Mailroom-Topic" } : d)));
    });
    const id = newId();
    // X-Mailroom-Topic is an instruction to Mailroom, removed with Bcc (raw-message.ts).
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
      lane: "transactional",
      topicId: topicId ?? null,
      broadcastId: null,
      contactId: null,
      raw: finalized.raw,
      recipients,
      suppressed,
      leftTopic,
      dsn: input.dsn && resolveRelayDsn(input.dsn, input.raw),
    };
  };

  /** What attachments given by `path` may add up to in one request, a batch too: one message's size limit. */
  const fetchBudget = () => ({ left: limits.maxMessageBytes });

  /** A received message forwarded by an inbound route: its bytes as they leave, to the route's addresses. */
  const prepareForward = async (input: ForwardInput, actor: Actor): Promise<PreparedMessage> => {
    assertSize(input.raw.length);
    const recipients = distinctAddresses(input.envelope.to.map((address) => ({ name: "", address })));
    // A forwarded copy belongs to no topic: the route's addresses chose to receive it.
    const { suppressed, leftTopic } = await admitRecipients(actor, recipients, undefined);
    const id = newId();
    const { fields } = input;
    return {
      ...origin(id, actor, input.source),
      messageId: fields.messageId ?? `<${id}@${domainOf(input.envelope.from) || "forward.invalid"}>`,
      fromHeader: fields.fromHeader,
      envelopeFrom: input.envelope.from,
      to: fields.to,
      cc: fields.cc,
      bcc: [],
      replyTo: fields.replyTo,
      subject: fields.subject,
      html: fields.html,
      text: fields.text,
      tags: [],
      templateId: null,
      raw: input.raw,
      recipients,
      suppressed,
      topicId: null,
      broadcastId: null,
      contactId: null,
      leftTopic,
      // Mail a person or a program wrote to one recipient, not a newsletter: the transactional lane.
      lane: "transactional",
    };
  };

  const prepare = async (input: SubmitInput, actor: Actor, budget: { left: number }): Promise<PreparedMessage> => {
    if (input.kind === "raw") return prepareRaw(input, actor);
    if (input.kind === "forward") return prepareForward(input, actor);
    await admitFrom(actor, input.fields.from, input.fields.sender ? [input.fields.sender] : []);
    const recipients = distinctAddresses([...input.fields.to, ...input.fields.cc, ...input.fields.bcc]);
    const { suppressed, leftTopic } = await admitRecipients(actor, recipients, input.fields.topicId);
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
      lane: input.lane ?? "transactional",
      topicId: fields.topicId ?? null,
      broadcastId: input.broadcast?.id ?? null,
      contactId: input.broadcast?.contactId ?? null,
      raw: composed.raw,
      recipients,
      suppressed,
      leftTopic,
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
    const deliveries = deliveryRows(messages, now, createdAt);
    await insertAccepted(tx, {
      emails: messages.map((message) => emailRow(message, createdAt)),
      contents,
      deliveries,
      relayEnvelopes: messages.flatMap(({ id, dsn }) =>
        dsn ? [{ emailId: id, returnTo: dsn.returnTo, ret: dsn.ret, envid: dsn.envid }] : [],
      ),
    });
    for (const body of staged) await body.place(tx);
    // The message rows were inserted with the status of each message's last event (queued or scheduled).
    await events.appendRecorded(tx, acceptedEvents(messages));
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
    const admission = messages[0]?.systemMail ? { release() {} } : await deps.quotas.admit(actor, messages.length);
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
      const message = { ...(await prepare(input, actor, fetchBudget())), systemMail: options.system };
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
      const prepareOne = (input: SubmitInput | AppError) =>
        input instanceof AppError ? Promise.reject(input) : prepare(input, actor, budget);
      const together = options.concurrently ? inputs.map((input) => prepareOne(input).catch((error) => error)) : [];
      for (const [i, input] of inputs.entries()) {
        try {
          if (!options.concurrently) prepared.push(await prepareOne(input));
          else {
            const outcome: unknown = await together[i];
            if (outcome instanceof Error) throw outcome;
            prepared.push(outcome as PreparedMessage);
          }
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
