/**
 * The overview's figures (screens/overview.tsx): the rates per recipient and how numbers are written. Invariant: a
 * rate is computed by `rates` alone, so the overview's figures, chart and table always agree.
 */
import type { StatCount } from "../clients/node/src/wire.ts";
import { TEST_ADDRESS_DOMAIN } from "./test-address-list.ts";

type Counts = Record<StatCount, number>;

export interface Rates {
  /** Recipients that got through: to the receiving server, or to the smarthost or SES relaying for it. */
  reached: number;
  /** Recipients whose delivery ended: reached, bounced or failed. */
  ended: number;
  delivered: number | null;
  bounce: number | null;
  complaint: number | null;
}

/**
 * The rates, per recipient. Direct delivery (and capture) records `delivered`; a smarthost or SES records `sent`, and
 * SES may report the same recipient `delivered` later — so the larger of the two counts who got through without
 * counting anyone twice. Mixing both kinds in one period undercounts it slightly, which errs towards a higher bounce
 * rate, never a lower one.
 */
export function rates(c: Counts): Rates {
  const reached = Math.max(c.sent, c.delivered);
  const ended = reached + c.bounced + c.failed;
  return {
    reached,
    ended,
    delivered: ended ? reached / ended : null,
    bounce: ended ? c.bounced / ended : null,
    complaint: reached ? c.complained / reached : null,
  };
}

export const RATE_HINT = `Per recipient. Delivered: taken by the receiving server, or by the smarthost or SES relaying for it. Delivered % and bounce rate: of the recipients whose delivery ended (delivered, bounced or failed). Complaint rate: complaints per delivered recipient. Test-mode mail (a test key's) counts as delivered when captured. Mail to the test addresses (…@${TEST_ADDRESS_DOMAIN}) counts nowhere, so a rehearsed bounce never raises the bounce rate: a message to them alone is not accepted either.`;

export const count = (n: number) => n.toLocaleString("en");
// A no-break space keeps the sign with its number in narrow cells.
export const percent = (r: number | null) => (r === null ? "—" : `${(r * 100).toFixed(1).replace(/\.0$/, "")}\u00a0%`);
/** An axis value: small rates need their second decimal (0.25 %). */
export const axisPercent = (r: number) => `${Number((r * 100).toFixed(2))}\u00a0%`;
export const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;
