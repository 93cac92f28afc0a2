/**
 * HTTP routes of organisations and their people (docs/teams.md#roles): the organisations a caller acts in, a new
 * one, members with their roles, and invitations — each one contract (http/contract.ts).
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { pageOfList } from "../db/pages.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { DeletedOf, ListOf, named, PageQuery } from "../lib/wire.ts";
import type { Members } from "./members.ts";
import type { People } from "./service.ts";
import {
  CreatedInvitationSchema,
  CreatedOrganizationSchema,
  MemberListSchema,
  MemberSchema,
  OrganizationMembershipSchema,
  RoleSchema,
} from "./wire.ts";

const CreateOrganizationSchema = t.Object({ name: t.String() }, { additionalProperties: false });
const InviteSchema = named(
  "InviteMemberOptions",
  t.Object(
    { email: t.String({ description: "The address the link is for; stored lower-cased" }), role: RoleSchema },
    {
      additionalProperties: false,
      description: "An invitation to make: an API key may grant every role but owner (only owners make owners)",
    },
  ),
);
const ChangeRoleSchema = named(
  "UpdateMemberRoleOptions",
  t.Object({ role: RoleSchema }, { additionalProperties: false, description: "A member's new role" }),
);

const Id = t.Object({ id: t.String({ description: "The person's id" }) });

export function teamRoutes(deps: AuthDeps & { people: People; members: Members }) {
  const { people, members } = deps;
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    route(
      {
        method: "GET",
        path: "/v1/organizations",
        summary: "The organisations the caller acts in",
        tags: ["Organization"],
        query: t.Object(PageQuery),
        responses: { 200: ListOf(OrganizationMembershipSchema) },
      },
      async ({ actor, query }) => {
        const { page, hasMore } = pageOfList((await people.organizations(actor)).data, {
          ...query,
          limit: query.limit ?? 20,
        });
        return { object: "list" as const, has_more: hasMore, data: page };
      },
    ),
    route(
      {
        method: "POST",
        path: "/v1/organizations",
        summary: "Create an organisation (instance admins); its creator becomes its owner",
        tags: ["Organization"],
        body: CreateOrganizationSchema,
        responses: { 201: CreatedOrganizationSchema },
      },
      ({ actor, body }) => people.createOrganization(actor, body.name),
    ),
    route(
      {
        method: "GET",
        path: "/v1/members",
        summary: "The organisation's members (oldest first) and pending invitations",
        tags: ["Members"],
        query: t.Object(PageQuery),
        responses: { 200: MemberListSchema },
      },
      async ({ actor, query }) => {
        const all = await members.list(actor);
        const { page, hasMore } = pageOfList(all.data, { ...query, limit: query.limit ?? 100 });
        return { ...all, has_more: hasMore, data: page };
      },
    ),
    route(
      {
        method: "POST",
        path: "/v1/members/invitations",
        summary:
          "Invite someone by a one-time link, valid 7 days, mailed to them from the organisation's verified domain (emailed says whether it was) and in this answer",
        tags: ["Members"],
        body: InviteSchema,
        responses: { 201: CreatedInvitationSchema },
        errors: ["conflict"],
      },
      // The inviter's own origin serves only their copy of the link; the mailed one is the configured address's.
      ({ actor, body, request }) => members.invite(actor, body, new URL(request.url).origin),
    ),
    route(
      {
        method: "DELETE",
        path: "/v1/members/invitations/:id",
        summary: "Revoke an invitation",
        tags: ["Members"],
        params: t.Object({ id: t.String({ description: "The invitation's id" }) }),
        responses: { 200: DeletedOf("invitation") },
      },
      ({ actor, params }) => members.revokeInvitation(actor, params.id),
    ),
    route(
      {
        method: "PATCH",
        path: "/v1/members/:id",
        summary: "Change a member's role (owners by owners only; the last owner stays one)",
        tags: ["Members"],
        params: Id,
        body: ChangeRoleSchema,
        responses: { 200: MemberSchema },
        errors: ["conflict"],
      },
      ({ actor, params, body }) => members.changeRole(actor, params.id, body.role),
    ),
    route(
      {
        method: "DELETE",
        path: "/v1/members/:id",
        summary: "Remove a member (not the last owner)",
        tags: ["Members"],
        params: Id,
        responses: { 200: DeletedOf("member") },
        errors: ["conflict"],
      },
      ({ actor, params }) => members.remove(actor, params.id),
    ),
  ]);
}
