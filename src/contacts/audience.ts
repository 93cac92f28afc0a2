/**
 * Segments, topics and contact properties (docs/contacts.md), as the API manages them. Invariants: a topic's
 * `default_subscription` never changes after create; deleting a segment keeps its contacts; a property's type never
 * changes, and every topic change appends its `topic.*` event in the change's transaction.
 */
import type { Actor } from "../access.ts";
import { requireScope } from "../access.ts";
import { recordAudit } from "../audit/log.ts";
import type { PageOptions } from "../db/pages.ts";
import type { PropertyType, TopicSubscription } from "../db/schema/index.ts";
import type { Db } from "../db/store.ts";
import { AppError, validationError } from "../errors.ts";
import { isoTime } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import {
  countSegmentContacts,
  countTopics,
  deleteProperty,
  deleteSegment,
  deleteTopic,
  findProperty,
  findTopic,
  insertProperty,
  insertSegment,
  insertTopic,
  MAX_PROPERTIES,
  MAX_TOPICS,
  pageProperties,
  pageSegments,
  pageTopics,
  propertiesOf,
  renameSegment,
  setPropertyFallback,
  type PropertyRow,
  type TopicRow,
  updateTopic,
} from "./audience-repo.ts";
import type { ContactPropertyView, SegmentCountView, SegmentView, TopicView } from "./model.ts";
import { findSegment, type SegmentRow } from "./repo.ts";
import type { ContactDeps } from "./service.ts";
import { MAX_DESCRIPTION, propertyKey, propertyValue, requiredName } from "./validate.ts";
import { propertyView, segmentView, topicEventData, topicView } from "./views.ts";

type List<T> = { object: "list"; has_more: boolean; data: T[] };

export interface SegmentService {
  create(actor: Actor, input: { name: string }): Promise<SegmentView>;
  get(actor: Actor, id: string): Promise<SegmentView>;
  /** How many contacts it holds (Mailroom's extra: what a broadcast's send confirmation names). */
  count(actor: Actor, id: string): Promise<SegmentCountView>;
  list(actor: Actor, options: PageOptions): Promise<List<SegmentView>>;
  update(actor: Actor, id: string, input: { name: string }): Promise<SegmentView>;
  remove(actor: Actor, id: string): Promise<SegmentView>;
}

export interface TopicService {
  create(
    actor: Actor,
    input: {
      name: string;
      description?: string | null;
      default_subscription: TopicSubscription;
      visibility?: "public" | "private";
    },
  ): Promise<TopicView>;
  get(actor: Actor, id: string): Promise<TopicView>;
  list(actor: Actor, options: PageOptions): Promise<List<TopicView>>;
  update(
    actor: Actor,
    id: string,
    input: { name?: string; description?: string | null; visibility?: "public" | "private" },
  ): Promise<TopicView>;
  remove(actor: Actor, id: string): Promise<TopicView>;
}

export interface PropertyService {
  create(
    actor: Actor,
    input: { key: string; type: PropertyType; fallback_value?: string | number | null },
  ): Promise<ContactPropertyView>;
  get(actor: Actor, id: string): Promise<ContactPropertyView>;
  list(actor: Actor, options: PageOptions): Promise<List<ContactPropertyView>>;
  update(actor: Actor, id: string, input: { fallback_value?: string | number | null }): Promise<ContactPropertyView>;
  remove(actor: Actor, id: string): Promise<ContactPropertyView>;
}

const listOf = <R, V>(found: { page: R[]; hasMore: boolean }, view: (row: R) => V): List<V> => ({
  object: "list",
  has_more: found.hasMore,
  data: found.page.map(view),
});

/** The audit log's record of a change to the audience's definitions (not of single contacts: those are data). */
const audited = (
  deps: ContactDeps,
  tx: Db,
  actor: Actor,
  action: string,
  target: { type: string; id: string; name: string },
) => recordAudit(tx, actor, { action, target }, deps.clock.now());

export function createSegmentService(deps: ContactDeps): SegmentService {
  const { db, writer, clock } = deps;
  const found = async (from: Db, organizationId: string, id: string) => {
    const row = await findSegment(from, organizationId, id.toLowerCase());
    if (!row) throw new AppError("not_found", "Segment not found.");
    return row;
  };
  return {
    async create(actor, input) {
      requireScope(actor, "contacts:write");
      const at = isoTime(clock.now());
      const row: SegmentRow = {
        id: newId(),
        organizationId: actor.organizationId,
        name: requiredName(input.name, "name"),
        createdAt: at,
        updatedAt: at,
      };
      await writer.write(async (tx) => {
        await insertSegment(tx, row);
        await audited(deps, tx, actor, "segment.created", { type: "segment", id: row.id, name: row.name });
      });
      return segmentView(row);
    },
    async get(actor, id) {
      requireScope(actor, "contacts:read");
      return segmentView(await found(db, actor.organizationId, id));
    },
    async count(actor, id) {
      requireScope(actor, "contacts:read");
      const row = await found(db, actor.organizationId, id);
      return { object: "segment_count", segment_id: row.id, contacts: await countSegmentContacts(db, row.id) };
    },
    async list(actor, options) {
      requireScope(actor, "contacts:read");
      return listOf(await pageSegments(db, actor.organizationId, options), segmentView);
    },
    async update(actor, id, input) {
      requireScope(actor, "contacts:write");
      const name = requiredName(input.name, "name");
      const row = await writer.write(async (tx) => {
        const row = await found(tx, actor.organizationId, id);
        const updatedAt = isoTime(clock.now());
        await renameSegment(tx, row.id, name, updatedAt);
        await audited(deps, tx, actor, "segment.updated", { type: "segment", id: row.id, name });
        return { ...row, name, updatedAt };
      });
      return segmentView(row);
    },
    async remove(actor, id) {
      requireScope(actor, "contacts:write");
      const row = await writer.write(async (tx) => {
        const row = await found(tx, actor.organizationId, id);
        await deleteSegment(tx, row.id);
        await audited(deps, tx, actor, "segment.deleted", { type: "segment", id: row.id, name: row.name });
        return row;
      });
      return segmentView(row);
    },
  };
}

const descriptionOf = (value: string | null | undefined) => {
  if (value == null) return null;
  if (value.length > MAX_DESCRIPTION)
    throw validationError([{ path: "description", message: `must be at most ${MAX_DESCRIPTION} characters` }]);
  return value.toWellFormed().trim() || null;
};

export function createTopicService(deps: ContactDeps): TopicService {
  const { db, writer, clock, events } = deps;
  const found = async (from: Db, organizationId: string, id: string) => {
    const row = await findTopic(from, organizationId, id.toLowerCase());
    if (!row) throw new AppError("not_found", "Topic not found.");
    return row;
  };
  const emit = (tx: Db, type: "topic.created" | "topic.updated" | "topic.deleted", row: TopicRow) =>
    events.append(tx, { organizationId: row.organizationId, type, data: topicEventData(row) });
  return {
    async create(actor, input) {
      requireScope(actor, "contacts:write");
      const at = isoTime(clock.now());
      const row: TopicRow = {
        id: newId(),
        organizationId: actor.organizationId,
        name: requiredName(input.name, "name"),
        description: descriptionOf(input.description),
        defaultSubscription: input.default_subscription,
        visibility: input.visibility ?? "public",
        createdAt: at,
        updatedAt: at,
      };
      await writer.write(async (tx) => {
        if ((await countTopics(tx, actor.organizationId)) >= MAX_TOPICS)
          throw new AppError("validation_error", `An organisation has at most ${MAX_TOPICS} topics.`);
        await insertTopic(tx, row);
        await emit(tx, "topic.created", row);
        await audited(deps, tx, actor, "topic.created", { type: "topic", id: row.id, name: row.name });
      });
      return topicView(row);
    },
    async get(actor, id) {
      requireScope(actor, "contacts:read");
      return topicView(await found(db, actor.organizationId, id));
    },
    async list(actor, options) {
      requireScope(actor, "contacts:read");
      return listOf(await pageTopics(db, actor.organizationId, options), topicView);
    },
    async update(actor, id, input) {
      requireScope(actor, "contacts:write");
      const row = await writer.write(async (tx) => {
        const row = await found(tx, actor.organizationId, id);
        const updated: TopicRow = {
          ...row,
          name: input.name === undefined ? row.name : requiredName(input.name, "name"),
          description: input.description === undefined ? row.description : descriptionOf(input.description),
          visibility: input.visibility ?? row.visibility,
          updatedAt: isoTime(clock.now()),
        };
        const { name, description, visibility, updatedAt } = updated;
        await updateTopic(tx, row.id, { name, description, visibility, updatedAt });
        await emit(tx, "topic.updated", updated);
        await audited(deps, tx, actor, "topic.updated", { type: "topic", id: row.id, name });
        return updated;
      });
      return topicView(row);
    },
    async remove(actor, id) {
      requireScope(actor, "contacts:write");
      const row = await writer.write(async (tx) => {
        const row = await found(tx, actor.organizationId, id);
        await deleteTopic(tx, row.id);
        await emit(tx, "topic.deleted", row);
        await audited(deps, tx, actor, "topic.deleted", { type: "topic", id: row.id, name: row.name });
        return row;
      });
      return topicView(row);
    },
  };
}

export function createPropertyService(deps: ContactDeps): PropertyService {
  const { db, writer, clock } = deps;
  const found = async (from: Db, organizationId: string, id: string) => {
    const row = await findProperty(from, organizationId, id.toLowerCase());
    if (!row) throw new AppError("not_found", "Contact property not found.");
    return row;
  };
  const fallbackOf = (type: PropertyType, value: string | number | null | undefined) =>
    value == null ? null : propertyValue(type, value, "fallback_value");
  return {
    async create(actor, input) {
      requireScope(actor, "contacts:write");
      const row: PropertyRow = {
        id: newId(),
        organizationId: actor.organizationId,
        key: propertyKey(input.key),
        type: input.type,
        fallbackValue: fallbackOf(input.type, input.fallback_value),
        createdAt: isoTime(clock.now()),
      };
      await writer.write(async (tx) => {
        const defined = await propertiesOf(tx, actor.organizationId);
        if (defined.has(row.key)) throw new AppError("conflict", `The contact property "${row.key}" already exists.`);
        if (defined.size >= MAX_PROPERTIES)
          throw new AppError("validation_error", `An organisation has at most ${MAX_PROPERTIES} contact properties.`);
        await insertProperty(tx, row);
        await audited(deps, tx, actor, "contact_property.created", {
          type: "contact_property",
          id: row.id,
          name: row.key,
        });
      });
      return propertyView(row);
    },
    async get(actor, id) {
      requireScope(actor, "contacts:read");
      return propertyView(await found(db, actor.organizationId, id));
    },
    async list(actor, options) {
      requireScope(actor, "contacts:read");
      return listOf(await pageProperties(db, actor.organizationId, options), propertyView);
    },
    async update(actor, id, input) {
      requireScope(actor, "contacts:write");
      const row = await writer.write(async (tx) => {
        const row = await found(tx, actor.organizationId, id);
        if (input.fallback_value === undefined) return row;
        const fallbackValue = fallbackOf(row.type, input.fallback_value);
        await setPropertyFallback(tx, row.id, fallbackValue);
        await audited(deps, tx, actor, "contact_property.updated", {
          type: "contact_property",
          id: row.id,
          name: row.key,
        });
        return { ...row, fallbackValue };
      });
      return propertyView(row);
    },
    async remove(actor, id) {
      requireScope(actor, "contacts:write");
      const row = await writer.write(async (tx) => {
        const row = await found(tx, actor.organizationId, id);
        await deleteProperty(tx, row.id);
        await audited(deps, tx, actor, "contact_property.deleted", {
          type: "contact_property",
          id: row.id,
          name: row.key,
        });
        return row;
      });
      return propertyView(row);
    },
  };
}
