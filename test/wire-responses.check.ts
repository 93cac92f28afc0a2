/**
 * The Node client's response types are the server's views (issue 25: one definition of each wire type). A shape the
 * OpenAPI document names is generated into clients/node/src/generated.ts (`npm run generate`) and pinned by that
 * generation (test/generated-clients.test.ts), so it has no line here. The views not yet named there are TypeScript
 * interfaces in their area, and the client's generic List and Deleted wrap generated items; for those `tsc --noEmit`
 * (the first step of `npm test`) compiles this file, and a client type that says less, more or otherwise than the
 * view it describes fails the build, naming both.
 */
import type * as Client from "../clients/node/src/types.ts";
import type { readAuditLog } from "../src/audit/reads.ts";
import type { DeliveryQueue } from "../src/deliveries/queue.ts";
import type { Members } from "../src/people/members.ts";

/** True only when each type is assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only for `true`: a mismatch fails here with both types in the message. */
type Expect<T extends true> = T;
/** What a service method resolves to. */
type Answer<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

export type Checks = [
  // The client's generic List and Deleted around generated items, against what the services answer.
  Expect<Same<Client.List<Client.Delivery>, Awaited<ReturnType<DeliveryQueue["list"]>>>>,
  Expect<Same<Client.Deleted<"invitation">, Answer<Members["revokeInvitation"]>>>,
  Expect<Same<Client.Deleted<"member">, Answer<Members["remove"]>>>,
  Expect<Same<Client.List<Client.AuditEvent>, Answer<typeof readAuditLog>>>,
];
