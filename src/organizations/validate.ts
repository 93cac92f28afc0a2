/**
 * The organisation's settings as `PATCH /v1/organization` takes them (docs/operations.md). The schema is the route's
 * documentation and shape check (shape-check.ts); the rules here are what a schema cannot say. Pure; every problem
 * with its path.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { named } from "../lib/wire.ts";
import { validationError, type ErrorDetail } from "../errors.ts";

/** Retention is kept at least a day and at most a century. */
const MAX_DAYS = 36_500;

const orDefault = (schema: ReturnType<typeof t.Integer>, what: string) =>
  t.Optional(t.Union([schema, t.Null()], { description: `${what}; null returns to the configured default` }));

export const OrganizationPatchSchema = named(
  "UpdateOrganizationOptions",
  t.Object(
    {
      name: t.Optional(t.String({ description: "1 to 100 characters on one line" })),
      rate_limit: orDefault(t.Integer({ minimum: 1 }), "Requests per minute, all keys together"),
      daily_quota: t.Optional(
        t.Union([t.Integer({ minimum: 1 }), t.Null()], { description: "Live messages per UTC day; null: none" }),
      ),
      retention: t.Optional(
        t.Object(
          {
            content_days: orDefault(
              t.Integer({ minimum: 1, maximum: MAX_DAYS }),
              "Days before the content of a finished message is removed",
            ),
            metadata_days: orDefault(
              t.Integer({ minimum: 1, maximum: MAX_DAYS }),
              "Days before a finished message's record and events are removed",
            ),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);

/** The settings to change; a null one returns to its default, an absent one stays. */
export interface OrganizationPatch {
  name?: string;
  rateLimit?: number | null;
  dailyQuota?: number | null;
  contentDays?: number | null;
  metadataDays?: number | null;
}

export function parseOrganizationPatch(body: Static<typeof OrganizationPatchSchema>): OrganizationPatch {
  const problems: ErrorDetail[] = [];
  const name = body.name?.trim();
  if (name !== undefined && (!name || name.length > 100 || /[\r\n]/.test(name)))
    problems.push({ path: "name", message: "must be 1 to 100 characters on one line" });
  if (problems.length) throw validationError(problems);
  return {
    name,
    rateLimit: body.rate_limit,
    dailyQuota: body.daily_quota,
    contentDays: body.retention?.content_days,
    metadataDays: body.retention?.metadata_days,
  };
}
