/**
 * The sending IPs' wire (docs/deliverability.md#sending-ips): an IP pool open to the caller's organisation, each
 * address with its warm-up and today's traffic — written once, as the schemas that type the pools' state and
 * document GET /v1/ip-pools, under the Node client's names.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { named, Nullable } from "../lib/wire.ts";

/** A provider whose rate is halved for one address after it pushed back (a 421 or a 4.7.x rate reply). */
export const IpPoolBackOffSchema = named(
  "IpPoolBackOff",
  t.Object({
    provider: t.String({
      description: "The destination provider (gmail, outlook, yahoo, a [shaping.<provider>], or other)",
    }),
    messages_per_minute: t.Integer({ description: "The rate in force now, per minute" }),
    until: t.String({ format: "date-time", description: "When the rate returns to the configured one" }),
  }),
);

export const IpPoolAddressSchema = named(
  "IpPoolAddress",
  t.Object({
    address: t.String(),
    ehlo_name: Nullable(t.String(), {
      description: "The EHLO name it greets with (its PTR name); null: [mx] ehlo_name",
    }),
    warmup_day: Nullable(t.Integer(), {
      description: "Day of warm-up (1 = the day it first sent); null before it sent, or once warm-up is over",
    }),
    daily_cap: Nullable(t.Integer(), { description: "Today's cap per provider while warming up; null: uncapped" }),
    today: t.Record(t.String(), t.Integer(), {
      description: "Messages delivered today (UTC), per destination provider",
    }),
    backed_off: t.Array(IpPoolBackOffSchema, {
      description: "Providers whose rate is halved now, with the rate in force and until when",
    }),
  }),
);
export type AddressState = Static<typeof IpPoolAddressSchema>;

export const IpPoolSchema = named(
  "IpPool",
  t.Object({
    name: t.String(),
    warmup: t.String({ description: "How long an address warms up from its first use, e.g. 30d (0d: none)" }),
    addresses: t.Array(IpPoolAddressSchema),
  }),
);
export type PoolState = Static<typeof IpPoolSchema>;
