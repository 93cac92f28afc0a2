/**
 * What the backup/restore and upgrade drills check of a store that came back (docs/operations.md#backup,
 * docs/operations.md#upgrades): over the HTTP API with a key made before, the key still works, the domain is there
 * with its DKIM record, the template, suppression, webhook endpoint and messages (with their raw content) too; and a
 * new message is signed with the domain's DKIM key as it was, verified by mailauth against the DNS record published
 * from before.
 */
import { expect } from "bun:test";
import { checkAuthentication } from "./mail-auth.ts";
import type { DnsServer } from "./dns-server.ts";
import type { SmtpDouble } from "./smtp-double.ts";

export type Api = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: any; text: string }>;

/** An Api over a base URL with a bearer key. */
export function apiAt(baseUrl: string, key: string): Api {
  return async (method, path, body) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: response.status, body: parsed, text };
  };
}

/** What a drill made before the store went away, and looks for after. */
export interface Made {
  domain: string;
  template: string;
  webhook: string;
  emails: string[];
  /** The DKIM record's value before (`v=DKIM1; k=rsa; p=…`), when the drill read it. */
  dkim?: string;
  /** Contacts made before, by address, when the store has them. */
  contacts?: string[];
}

/** Everything made before is there, with the same content. */
export async function expectIntact(api: Api, made: Made) {
  expect((await api("GET", "/v1/api-keys")).status).toBe(200);
  const domain = await api("GET", `/v1/domains/${made.domain}`);
  expect(domain.status).toBe(200);
  const dkim = domain.body.records.find((r: { record: string }) => r.record === "DKIM");
  expect(dkim.value).toContain("p=");
  if (made.dkim) expect(dkim.value).toBe(made.dkim);
  const template = await api("GET", `/v1/templates/${made.template}`);
  expect([template.status, template.body.name]).toEqual([200, "welcome"]);
  const suppressions = await api("GET", "/v1/suppressions");
  expect(suppressions.body.data.map((s: { email: string }) => s.email)).toContain("gone@dest.test");
  expect((await api("GET", `/v1/webhooks/${made.webhook}`)).status).toBe(200);
  for (const id of made.emails) {
    const email = await api("GET", `/v1/emails/${id}`);
    expect(email.status).toBe(200);
    expect(email.body.subject).toStartWith("Before");
    const raw = await api("GET", `/v1/emails/${id}/raw`);
    expect(raw.status).toBe(200);
    expect(raw.text).toContain("Subject: Before");
  }
  for (const address of made.contacts ?? []) {
    const contact = await api("GET", `/v1/contacts/${encodeURIComponent(address)}`);
    expect([contact.status, contact.body.email]).toEqual([200, address]);
  }
}

/**
 * Publishes the domain's records in `dns`, sends one message through `smarthost` (the app's default provider) and
 * verifies its DKIM signature as a receiver would.
 */
export async function expectNewMailVerifies(api: Api, domain: string, dns: DnsServer, smarthost: SmtpDouble) {
  const view = (await api("GET", `/v1/domains/${domain}`)).body;
  for (const record of view.records as Array<{ record: string; type: string; name: string; value: string }>)
    if (record.type === "TXT") dns.set(record.name, "TXT", [record.value]);
  const before = smarthost.received.length;
  const sent = await api("POST", "/v1/emails", {
    from: `hello@${domain}`,
    to: "after@dest.test",
    subject: "After",
    html: "<p>After</p>",
  });
  expect(sent.status).toBe(200);
  await smarthost.waitFor(before + 1, 15_000);
  const message = smarthost.received.at(-1)!;
  const verdict = await checkAuthentication(message.raw, { mailFrom: message.mailFrom, dnsServers: dns.servers });
  expect(verdict.dkim).toBe("pass");
  expect(verdict.dkimDomain).toBe(domain);
}
