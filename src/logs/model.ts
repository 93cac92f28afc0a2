/**
 * The request log's wire (docs/logs-and-mcp.md#the-request-log), in Resend's shapes: a list item (`Log` without its
 * bodies) and the entry with them (`GET /logs/:id`); Mailroom adds which key made the request, and to a page how long
 * entries are kept and whether recording is on.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { named, Nullable } from "../lib/wire.ts";

const LogFields = {
  id: t.String({ format: "uuid" }),
  created_at: t.String({ format: "date-time" }),
  endpoint: t.String({ description: "The path, as Resend's: /emails/<id> (no /v1)" }),
  method: t.String(),
  response_status: t.Integer(),
  user_agent: Nullable(t.String()),
  api_key_id: Nullable(t.String({ description: "The key that made the request (a Mailroom extension)" })),
};

/** One request in a list (Resend's list item: no bodies). */
export const LogListItemSchema = named("LogListItem", t.Object(LogFields));

/** One request with its bodies, secrets replaced by "[redacted]". */
export const LogSchema = named(
  "Log",
  t.Object({
    object: t.Literal("log"),
    ...LogFields,
    request_body: t.Unknown({ description: 'The JSON body sent, secrets replaced by "[redacted]"; null without one' }),
    response_body: t.Unknown({ description: 'The JSON answer, secrets replaced by "[redacted]"; null when not JSON' }),
  }),
);
export type LogView = Static<typeof LogSchema>;

/**
 * A page of the log: Resend's list, with what the admin UI says of the log (Mailroom extensions a Resend SDK ignores):
 * how long entries are kept and whether requests are being recorded.
 */
export const LogListSchema = named(
  "LogList",
  t.Object({
    object: t.Literal("list"),
    has_more: t.Boolean(),
    data: t.Array(LogListItemSchema),
    retention_days: t.Number({ description: "[retention] logs in days: entries older than this are removed" }),
    recording: t.Boolean({ description: "Whether requests are recorded now ([http] request_log)" }),
  }),
);
export type LogListView = Static<typeof LogListSchema>;
export type LogListItemView = Static<typeof LogListItemSchema>;
