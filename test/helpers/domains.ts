/**
 * The sending-domain tests' app (test/domains*.test.ts): for each test a fresh app on an injected clock whose DNS
 * look-ups go to a real DNS server on loopback, named HOST on 127.0.0.1; and the calls the tests make of the app of
 * the running test.
 */
import { expect } from "bun:test";
import { and, eq, isNull } from "drizzle-orm";
import { tablesOf } from "../../src/db/store.ts";
import type { DomainView } from "../../src/domains/model.ts";
import { ManualClock } from "../../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { startDnsServer, type DnsServer } from "./dns-server.ts";
import { closeAll, setUpFixture } from "./fixture.ts";

/** The app's [server] hostname: what the MX records name. */
export const HOST = "mail.mailroom.test";

export interface DomainApp {
  dns: DnsServer;
  clock: ManualClock;
  t: TestApp;
}

/** The record of that kind (DKIM, SPF, MX, DMARC, Inbound) in `view`. */
export const record = (view: DomainView, kind: string) => view.records.find((r) => r.record === kind)!;

async function startDomainApp(): Promise<DomainApp> {
  const dns = await startDnsServer();
  const clock = new ManualClock();
  const t = await createTestApp(
    { dns: { servers: dns.servers }, server: { hostname: HOST, public_ips: ["127.0.0.1"] } },
    { clock },
  );
  return { dns, clock, t };
}

/** A fresh app and DNS server for each test, handed to `bind`; answers the calls the tests make of them. */
export function setUpDomainApp(bind: (app: DomainApp) => void) {
  const running = setUpFixture({ each: true, start: startDomainApp, stop: ({ t, dns }) => closeAll(t, dns), bind });
  const json: TestApp["json"] = (...args) => running().t.json(...args);
  const store = () => running().t.app.services.store;
  return {
    /** Publishes `view`'s records in the test DNS server, except those of the kinds listed. */
    publish(view: DomainView, except: string[] = []) {
      const { dns } = running();
      for (const record of view.records) {
        if (except.includes(record.record) || (record.record === "Inbound" && record.status === "not_started"))
          continue;
        if (record.type === "TXT") dns.set(record.name, "TXT", [record.value]);
        else dns.set(record.name, "MX", [{ exchange: record.value, priority: record.priority! }]);
      }
    },
    async create(name = "example.com", body: Record<string, unknown> = {}): Promise<DomainView> {
      const res = await json("POST", "/v1/domains", { body: { name, ...body } });
      expect(res.status).toBe(200);
      return res.body;
    },
    get: async (id: string): Promise<DomainView> => (await json("GET", `/v1/domains/${id}`)).body,
    verify: async (id: string): Promise<DomainView> => (await json("POST", `/v1/domains/${id}/verify`)).body,
    send: (from = "hi@example.com") =>
      json("POST", "/v1/emails", { body: { from, to: "a@dest.test", subject: "Hi", html: "<p>Hi</p>" } }),
    /** The domain.updated events stored, oldest first. */
    domainEvents: () => {
      const { db } = store();
      const { events } = tablesOf(db);
      return db
        .select()
        .from(events)
        .where(and(eq(events.type, "domain.updated"), isNull(events.emailId)))
        .orderBy(events.id);
    },
    /** The DKIM keys as stored (sealed). */
    storedKeys: () => {
      const { db } = store();
      return db.select().from(tablesOf(db).dkimKeys);
    },
  };
}
