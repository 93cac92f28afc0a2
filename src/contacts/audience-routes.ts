/**
 * HTTP routes of segments (and their older name, audiences), topics and contact properties, in Resend's paths and
 * shapes (docs/contacts.md). Each route one contract (http/contract.ts).
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route, type Contract, type Route } from "../http/contract.ts";
import { DeletedOf, ListOf, PageQuery } from "../lib/wire.ts";
import type { PropertyService, SegmentService, TopicService } from "./audience.ts";
import { ContactPropertySchema, ContactSchema, SegmentCountSchema, SegmentSchema, TopicSchema } from "./model.ts";
import {
  CreatePropertySchema,
  CreateTopicSchema,
  SegmentBodySchema,
  UpdatePropertySchema,
  UpdateTopicSchema,
} from "./requests.ts";
import type { ContactService } from "./service.ts";

const Id = t.Object({ id: t.String() });
const page = <Q extends { limit?: number }>(query: Q) => ({ ...query, limit: query.limit ?? 20 });

/** The segment routes under `/v1/segments`, and again under Resend's older `/v1/audiences`. */
function segmentRoutes(
  base: "segments" | "audiences",
  segments: SegmentService,
  contacts: ContactService,
): Route<Contract>[] {
  const tags = ["Segments"];
  const what = base === "segments" ? "segment" : "audience (a segment)";
  return [
    route(
      {
        method: "POST",
        path: `/v1/${base}`,
        summary: `Create an ${what}`,
        tags,
        body: SegmentBodySchema,
        responses: { 200: SegmentSchema },
      },
      ({ actor, body }) => segments.create(actor, body),
    ),
    route(
      {
        method: "GET",
        path: `/v1/${base}`,
        summary: `List ${base}, newest first`,
        tags,
        query: t.Object(PageQuery),
        responses: { 200: ListOf(SegmentSchema) },
      },
      ({ actor, query }) => segments.list(actor, page(query)),
    ),
    route(
      {
        method: "GET",
        path: `/v1/${base}/:id`,
        summary: `Get an ${what}`,
        tags,
        params: Id,
        responses: { 200: SegmentSchema },
      },
      ({ actor, params }) => segments.get(actor, params.id),
    ),
    route(
      {
        method: "PATCH",
        path: `/v1/${base}/:id`,
        summary: `Rename an ${what}`,
        tags,
        params: Id,
        body: SegmentBodySchema,
        responses: { 200: SegmentSchema },
      },
      ({ actor, params, body }) => segments.update(actor, params.id, body),
    ),
    route(
      {
        method: "DELETE",
        path: `/v1/${base}/:id`,
        summary: `Delete an ${what} (its contacts stay)`,
        tags,
        params: Id,
        responses: { 200: DeletedOf("segment") },
      },
      async ({ actor, params }) => ({
        object: "segment" as const,
        id: (await segments.remove(actor, params.id)).id,
        deleted: true as const,
      }),
    ),
    ...(base === "segments"
      ? [
          route(
            {
              method: "GET",
              path: "/v1/segments/:id/contacts",
              summary: "List a segment's contacts, newest first",
              tags,
              params: Id,
              query: t.Object(PageQuery),
              responses: { 200: ListOf(ContactSchema) },
            },
            ({ actor, params, query }) => contacts.list(actor, { ...page(query), segmentId: params.id }),
          ),
          route(
            {
              method: "GET",
              path: "/v1/segments/:id/count",
              summary: "How many contacts a segment holds (Mailroom's extra)",
              tags,
              params: Id,
              responses: { 200: SegmentCountSchema },
            },
            ({ actor, params }) => segments.count(actor, params.id),
          ),
        ]
      : []),
  ];
}

export function audienceRoutes(
  deps: AuthDeps & {
    contacts: ContactService;
    segments: SegmentService;
    topics: TopicService;
    contactProperties: PropertyService;
  },
) {
  const { contacts, segments, topics, contactProperties: properties } = deps;
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    ...segmentRoutes("segments", segments, contacts),
    ...segmentRoutes("audiences", segments, contacts),
    route(
      {
        method: "POST",
        path: "/v1/topics",
        summary: "Create a topic",
        tags: ["Topics"],
        body: CreateTopicSchema,
        responses: { 200: TopicSchema },
      },
      ({ actor, body }) => topics.create(actor, body),
    ),
    route(
      {
        method: "GET",
        path: "/v1/topics",
        summary: "List topics, newest first",
        tags: ["Topics"],
        query: t.Object(PageQuery),
        responses: { 200: ListOf(TopicSchema) },
      },
      ({ actor, query }) => topics.list(actor, page(query)),
    ),
    route(
      {
        method: "GET",
        path: "/v1/topics/:id",
        summary: "Get a topic",
        tags: ["Topics"],
        params: Id,
        responses: { 200: TopicSchema },
      },
      ({ actor, params }) => topics.get(actor, params.id),
    ),
    route(
      {
        method: "PATCH",
        path: "/v1/topics/:id",
        summary: "Update a topic's name, description or visibility",
        tags: ["Topics"],
        params: Id,
        body: UpdateTopicSchema,
        responses: { 200: TopicSchema },
      },
      ({ actor, params, body }) => topics.update(actor, params.id, body),
    ),
    route(
      {
        method: "DELETE",
        path: "/v1/topics/:id",
        summary: "Delete a topic (and every contact's choice of it)",
        tags: ["Topics"],
        params: Id,
        responses: { 200: DeletedOf("topic") },
      },
      async ({ actor, params }) => ({
        object: "topic" as const,
        id: (await topics.remove(actor, params.id)).id,
        deleted: true as const,
      }),
    ),
    route(
      {
        method: "POST",
        path: "/v1/contact-properties",
        summary: "Create a contact property",
        tags: ["Contact properties"],
        body: CreatePropertySchema,
        responses: { 200: ContactPropertySchema },
      },
      ({ actor, body }) => properties.create(actor, body),
    ),
    route(
      {
        method: "GET",
        path: "/v1/contact-properties",
        summary: "List contact properties, newest first",
        tags: ["Contact properties"],
        query: t.Object(PageQuery),
        responses: { 200: ListOf(ContactPropertySchema) },
      },
      ({ actor, query }) => properties.list(actor, page(query)),
    ),
    route(
      {
        method: "GET",
        path: "/v1/contact-properties/:id",
        summary: "Get a contact property",
        tags: ["Contact properties"],
        params: Id,
        responses: { 200: ContactPropertySchema },
      },
      ({ actor, params }) => properties.get(actor, params.id),
    ),
    route(
      {
        method: "PATCH",
        path: "/v1/contact-properties/:id",
        summary: "Change a contact property's fallback value",
        tags: ["Contact properties"],
        params: Id,
        body: UpdatePropertySchema,
        optionalBody: true,
        responses: { 200: ContactPropertySchema },
      },
      ({ actor, params, body }) => properties.update(actor, params.id, body ?? {}),
    ),
    route(
      {
        method: "DELETE",
        path: "/v1/contact-properties/:id",
        summary: "Delete a contact property",
        tags: ["Contact properties"],
        params: Id,
        responses: { 200: DeletedOf("contact_property") },
      },
      async ({ actor, params }) => ({
        object: "contact_property" as const,
        id: (await properties.remove(actor, params.id)).id,
        deleted: true as const,
      }),
    ),
  ]);
}
