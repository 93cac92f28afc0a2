/**
 * HTTP routes of contacts, in Resend's paths and shapes (docs/contacts.md): a contact named by id or address; its
 * segments and topics; and the legacy `/audiences/:id/contacts[/:id_or_email]` forms, which act within that
 * segment. Each route one contract (http/contract.ts).
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Actor } from "../access.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { ListOf, OneOf, PageQuery } from "../lib/wire.ts";
import { checkShape } from "../shape-check.ts";
import type { Membership } from "./membership.ts";
import type { ContactImports } from "./imports.ts";
import { ContactImportSchema, ContactSchema, ContactTopicSchema, SegmentSchema } from "./model.ts";
import { IMPORT_STATUSES } from "../db/schema/index.ts";
import { CreateContactSchema, TopicChoices, UpdateContactSchema } from "./requests.ts";
import type { ContactService } from "./service.ts";
import { AppError } from "../errors.ts";

const tags = ["Contacts"];
const Contact = t.Object({ id: t.String({ description: "The contact's id, or its address" }) });
const InSegment = t.Object({
  id: t.String({ description: "The segment (audience) id" }),
  contact: t.String({ description: "The contact's id, or its address" }),
});
const ContactDeleted = t.Object({
  object: t.Literal("contact"),
  id: t.String(),
  contact: t.String({ description: "The contact's id (Resend's field)" }),
  deleted: t.Literal(true),
});
const UpdateTopicsBody = t.Union([TopicChoices, t.Object({ topics: TopicChoices })]);

export function contactRoutes(
  deps: AuthDeps & { contacts: ContactService; membership: Membership; contactImports: ContactImports },
) {
  const { contacts, membership, contactImports: imports } = deps;
  const inSegment = (actor: Actor, audienceId: string, idOrEmail: string) =>
    membership.contactIn(actor, audienceId, idOrEmail);
  const deleted = (id: string) => ({ object: "contact" as const, id, contact: id, deleted: true as const });

  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    // Before /v1/contacts/:id: `imports` is no contact.
    route(
      {
        method: "POST",
        path: "/v1/contacts/imports",
        summary:
          "Import contacts from a CSV (multipart/form-data: file, column_map, on_conflict, segments, topics as JSON)",
        description:
          "The upload is streamed to disk (at most 512 MiB) and imported in the background; follow it with GET /v1/contacts/imports/{id}.",
        tags,
        responses: { 200: t.Object({ object: t.Literal("contact_import"), id: t.String() }) },
        errors: ["validation_error", "payload_too_large"],
      },
      async ({ actor, request }) => {
        const { id } = await imports.create(actor, request.headers.get("content-type"), request.body);
        return { object: "contact_import" as const, id };
      },
    ),
    route(
      {
        method: "GET",
        path: "/v1/contacts/imports",
        summary: "List imports, newest first",
        tags,
        query: t.Object({ ...PageQuery, status: t.Optional(OneOf(IMPORT_STATUSES)) }),
        responses: { 200: ListOf(ContactImportSchema) },
      },
      ({ actor, query }) => imports.list(actor, { ...query, limit: query.limit ?? 20 }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/contacts/imports/:id",
        summary: "An import's status and live counts",
        tags,
        params: t.Object({ id: t.String() }),
        responses: { 200: ContactImportSchema },
      },
      ({ actor, params }) => imports.get(actor, params.id),
    ),
    route(
      {
        method: "POST",
        path: "/v1/contacts",
        summary: "Create a contact (409 if the address already is one)",
        tags,
        body: CreateContactSchema,
        responses: { 200: ContactSchema },
      },
      ({ actor, body }) => contacts.create(actor, body),
    ),
    route(
      {
        method: "GET",
        path: "/v1/contacts",
        summary: "List contacts, newest first (segment_id: that segment's; search: the contacts a term finds)",
        tags,
        query: t.Object({
          ...PageQuery,
          segment_id: t.Optional(t.String()),
          audience_id: t.Optional(t.String()),
          search: t.Optional(
            t.String({
              maxLength: 320,
              description:
                "Mailroom's extra: contacts whose address starts with it, then among the newest 10,000 those whose name starts with it or whose address contains it; one page, no cursor",
            }),
          ),
        }),
        responses: { 200: ListOf(ContactSchema) },
      },
      ({ actor, query }) =>
        contacts.list(actor, { ...query, limit: query.limit ?? 20, segmentId: query.segment_id ?? query.audience_id }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/contacts/:id",
        summary: "Get a contact by id or address, with its property values",
        tags,
        params: Contact,
        responses: { 200: ContactSchema },
      },
      ({ actor, params }) => contacts.get(actor, params.id),
    ),
    route(
      {
        method: "PATCH",
        path: "/v1/contacts/:id",
        summary: "Update a contact (null clears a name)",
        tags,
        params: Contact,
        body: UpdateContactSchema,
        optionalBody: true,
        responses: { 200: ContactSchema },
      },
      ({ actor, params, body }) => contacts.update(actor, params.id, body ?? {}),
    ),
    route(
      {
        method: "DELETE",
        path: "/v1/contacts/:id",
        summary: "Delete a contact",
        tags,
        params: Contact,
        responses: { 200: ContactDeleted },
      },
      async ({ actor, params }) => deleted((await contacts.remove(actor, params.id)).id),
    ),
    route(
      {
        method: "GET",
        path: "/v1/contacts/:id/segments",
        summary: "The segments a contact is in",
        tags,
        params: Contact,
        query: t.Object(PageQuery),
        responses: { 200: ListOf(SegmentSchema) },
      },
      ({ actor, params, query }) => membership.segmentsOf(actor, params.id, { ...query, limit: query.limit ?? 20 }),
    ),
    route(
      {
        method: "POST",
        path: "/v1/contacts/:id/segments/:segment_id",
        summary: "Add a contact to a segment",
        tags,
        params: t.Object({ id: t.String(), segment_id: t.String() }),
        responses: { 200: t.Object({ id: t.String({ description: "The segment" }), contact_id: t.String() }) },
      },
      async ({ actor, params }) => {
        const added = await membership.addToSegment(actor, params.id, params.segment_id);
        return { id: added.segmentId, contact_id: added.contactId };
      },
    ),
    route(
      {
        method: "DELETE",
        path: "/v1/contacts/:id/segments/:segment_id",
        summary: "Take a contact out of a segment (both stay)",
        tags,
        params: t.Object({ id: t.String(), segment_id: t.String() }),
        responses: { 200: t.Object({ id: t.String(), contact_id: t.String(), deleted: t.Literal(true) }) },
      },
      async ({ actor, params }) => {
        const removed = await membership.removeFromSegment(actor, params.id, params.segment_id);
        return { id: removed.segmentId, contact_id: removed.contactId, deleted: true as const };
      },
    ),
    route(
      {
        method: "GET",
        path: "/v1/contacts/:id/topics",
        summary: "Every topic with the contact's effective subscription",
        tags,
        params: Contact,
        query: t.Object(PageQuery),
        responses: { 200: ListOf(ContactTopicSchema) },
      },
      ({ actor, params, query }) => membership.topicsOf(actor, params.id, { ...query, limit: query.limit ?? 20 }),
    ),
    route(
      {
        method: "PATCH",
        path: "/v1/contacts/:id/topics",
        summary: "Set the contact's choice of topics (a list of {id, subscription}; {topics: [...]} too)",
        tags,
        params: Contact,
        body: TopicChoices,
        checksOwnBody: true,
        responses: { 200: t.Object({ id: t.String({ description: "The contact" }) }) },
      },
      async ({ actor, params, body }) => {
        const given = checkShape(UpdateTopicsBody, body);
        const choices = Array.isArray(given) ? given : given.topics;
        return { id: (await membership.updateTopicsOf(actor, params.id, choices)).contactId };
      },
    ),
    // Resend's older audience forms: the contact within one segment.
    route(
      {
        method: "POST",
        path: "/v1/audiences/:id/contacts",
        summary: "Create a contact in an audience (legacy; an existing contact joins it)",
        tags,
        params: t.Object({ id: t.String({ description: "The segment (audience) id" }) }),
        body: CreateContactSchema,
        responses: { 200: ContactSchema },
      },
      async ({ actor, params, body }) => {
        const existing = await contacts.get(actor, body.email).catch((error) => {
          if (error instanceof AppError && error.name === "not_found") return undefined;
          throw error;
        });
        if (!existing) return contacts.create(actor, { ...body, segments: [{ id: params.id }] });
        const inIt = await inSegment(actor, params.id, existing.id).then(
          () => true,
          () => false,
        );
        if (inIt) throw new AppError("conflict", `${existing.email} is already in that audience.`);
        await membership.addToSegment(actor, existing.id, params.id);
        return existing;
      },
    ),
    route(
      {
        method: "GET",
        path: "/v1/audiences/:id/contacts",
        summary: "List an audience's contacts (legacy)",
        tags,
        params: t.Object({ id: t.String({ description: "The segment (audience) id" }) }),
        query: t.Object(PageQuery),
        responses: { 200: ListOf(ContactSchema) },
      },
      ({ actor, params, query }) => contacts.list(actor, { ...query, limit: query.limit ?? 20, segmentId: params.id }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/audiences/:id/contacts/:contact",
        summary: "Get a contact of an audience (legacy)",
        tags,
        params: InSegment,
        responses: { 200: ContactSchema },
      },
      ({ actor, params }) => inSegment(actor, params.id, params.contact),
    ),
    route(
      {
        method: "PATCH",
        path: "/v1/audiences/:id/contacts/:contact",
        summary: "Update a contact of an audience (legacy)",
        tags,
        params: InSegment,
        body: UpdateContactSchema,
        optionalBody: true,
        responses: { 200: ContactSchema },
      },
      async ({ actor, params, body }) => {
        const contact = await inSegment(actor, params.id, params.contact);
        return contacts.update(actor, contact.id, body ?? {});
      },
    ),
    route(
      {
        method: "DELETE",
        path: "/v1/audiences/:id/contacts/:contact",
        summary: "Take a contact out of an audience (legacy; the contact stays)",
        tags,
        params: InSegment,
        responses: { 200: ContactDeleted },
      },
      async ({ actor, params }) => {
        const contact = await inSegment(actor, params.id, params.contact);
        await membership.removeFromSegment(actor, contact.id, params.id);
        return deleted(contact.id);
      },
    ),
  ]);
}
