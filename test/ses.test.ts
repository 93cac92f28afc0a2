/**
 * The SES provider: against the aws-ses-v2-local emulator on loopback (a message handed over through SES v2
 * SendEmail with raw content is stored by it as sent), and against a scripted server speaking SES v2's error format
 * (the emulator keeps no raw message): SigV4-signed requests whose raw message carries a DKIM signature that
 * verifies against a loopback DNS server, throttling and 5xx deferred and retried, MessageRejected bounced, an
 * unreachable endpoint deferred.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AddressInfo } from "node:net";
import sesEmulator from "aws-ses-v2-local";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { checkAuthentication } from "./helpers/mail-auth.ts";

const SES_SETTINGS = {
  region: "eu-west-1",
  access_key_id: "AKIDMAILROOMTEST",
  secret_access_key: "do-not-log-this-secret",
  configuration_set: "mailroom-events",
};

interface ScriptedRequest {
  authorization: string | null;
  body: { Destination: { ToAddresses: string[] }; Content: { Raw: { Data: string } }; ConfigurationSetName?: string };
}

let dns: DnsServer;
let emulator: Awaited<ReturnType<typeof sesEmulator>>;
let emulatorUrl: string;
let scripted: ReturnType<typeof Bun.serve>;
const scriptedRequests: ScriptedRequest[] = [];
/** The scripted server's next answers, first in first out; 200 with a MessageId when empty. */
const answers: Array<{ status: number; type?: string; message?: string; retryAfter?: string }> = [];

beforeAll(async () => {
  dns = await startDnsServer();
  emulator = await sesEmulator({ host: "127.0.0.1", port: 0 });
  emulatorUrl = `http://127.0.0.1:${(emulator.address() as AddressInfo).port}`;
  scripted = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      scriptedRequests.push({
        authorization: request.headers.get("authorization"),
        body: (await request.json()) as ScriptedRequest["body"],
      });
      const next = answers.shift();
      if (!next) return Response.json({ MessageId: `0102-scripted-${scriptedRequests.length}` });
      const headers: Record<string, string> = {
        "x-amzn-ErrorType": `${next.type}:http://internal.amazon.com/coral/com.amazon.coral.service/`,
      };
      if (next.retryAfter) headers["retry-after"] = next.retryAfter;
      return Response.json({ message: next.message }, { status: next.status, headers });
    },
  });
});

afterAll(async () => {
  await new Promise<void>((resolve) => emulator.close(() => resolve()));
  scripted.stop(true);
  await dns.close();
});

/** A domain routed to a named SES provider (the default stays capture). */
async function sesApp(endpoint: string, clock = new ManualClock(Date.now())): Promise<TestApp> {
  const t = await createTestApp(
    {
      dns: { servers: dns.servers },
      delivery: { retry_schedule: ["1m"], retry_max_age: "1h" },
      providers: { ses_eu: { kind: "ses", ...SES_SETTINGS, endpoint } },
    },
    { clock },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true, providers: ["ses_eu"] });
  // The domain's DKIM key, published where a receiver looks it up.
  for (const record of (await t.json("GET", "/v1/domains/example.com")).body.records as Array<{
    type: string;
    name: string;
    value: string;
  }>) {
    if (record.type === "TXT" && record.name.includes("._domainkey.")) dns.set(record.name, "TXT", [record.value]);
  }
  return t;
}

async function sendAndDeliver(t: TestApp, to = "reader@dest.test") {
  const sent = await t.json("POST", "/v1/emails", {
    body: { from: "Acme <hello@example.com>", to, subject: "Your receipt", html: "<p>Thanks.</p>" },
  });
  expect(sent.status).toBe(200);
  await t.app.services.worker.runOnce();
  return sent.body.id as string;
}

const recipientOf = async (t: TestApp, id: string) =>
  (await t.json("GET", `/v1/emails/${id}`)).body.recipients[0] as {
    status: string;
    last_response: string;
    provider: string;
    provider_message_id: string | null;
  };

test("through the SES emulator: the message is accepted and stored as sent, its SES message id kept", async () => {
  const t = await sesApp(emulatorUrl);
  try {
    const id = await sendAndDeliver(t);
    const recipient = await recipientOf(t, id);
    expect(recipient.status).toBe("sent");
    const store = (await (await fetch(`${emulatorUrl}/store`)).json()) as {
      emails: Array<{
        messageId: string;
        from: string;
        subject: string;
        destination: { to: string[] };
        body: { html?: string };
      }>;
    };
    const stored = store.emails.find((email) => recipient.provider_message_id === email.messageId);
    expect(recipient).toMatchObject({
      provider: "ses_eu",
      last_response: `SES accepted the message as ${stored?.messageId}`,
    });
    expect(stored).toMatchObject({
      from: '"Acme" <hello@example.com>',
      subject: "Your receipt",
      destination: { to: ["reader@dest.test"] },
    });
    expect(stored!.body.html).toContain("Thanks.");
  } finally {
    await t.close();
  }
});

describe("against SES v2's answers", () => {
  let t: TestApp;
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    t = await sesApp(`http://127.0.0.1:${scripted.port}`, clock);
  });
  afterAll(async () => {
    await t.close();
  });

  test("requests are SigV4-signed for ses in the region and carry one recipient, the raw message and the configuration set", async () => {
    const id = await sendAndDeliver(t, "one@dest.test");
    expect((await recipientOf(t, id)).status).toBe("sent");
    const request = scriptedRequests.at(-1)!;
    expect(request.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDMAILROOMTEST\/\d{8}\/eu-west-1\/ses\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/,
    );
    expect(request.body.Destination.ToAddresses).toEqual(["one@dest.test"]);
    expect(request.body.ConfigurationSetName).toBe("mailroom-events");
    const raw = Buffer.from(request.body.Content.Raw.Data, "base64");
    expect(raw.toString()).toMatch(/^DKIM-Signature: /);
    const verdict = await checkAuthentication(raw, { mailFrom: "0102@amazonses.com", dnsServers: dns.servers });
    expect(verdict).toMatchObject({ dkim: "pass", dkimDomain: "example.com" });
  });

  test("throttling is deferred with SES's Retry-After, then the retry goes through", async () => {
    answers.push({
      status: 429,
      type: "TooManyRequestsException",
      message: "Maximum sending rate exceeded.",
      retryAfter: "30",
    });
    const id = await sendAndDeliver(t);
    const deferred = await recipientOf(t, id);
    expect(deferred.status).toBe("deferred");
    expect(deferred.last_response).toBe("SES 429 TooManyRequestsException: Maximum sending rate exceeded.");
    clock.advance(61_000);
    await t.app.services.worker.runOnce();
    expect((await recipientOf(t, id)).status).toBe("sent");
  });

  test.each([
    ["SES 5xx", { status: 500, type: "InternalFailure", message: "We encountered an internal error." }, "deferred"],
    [
      "a paused account",
      { status: 400, type: "SendingPausedException", message: "Sending is paused for this account." },
      "deferred",
    ],
    [
      "credentials SES does not know",
      {
        status: 403,
        type: "UnrecognizedClientException",
        message: "The security token included in the request is invalid.",
      },
      "deferred",
    ],
    ["MessageRejected", { status: 400, type: "MessageRejected", message: "Email address is not verified." }, "bounced"],
    [
      "MailFromDomainNotVerified",
      { status: 400, type: "MailFromDomainNotVerifiedException", message: "The MAIL FROM domain is not verified." },
      "bounced",
    ],
  ])("%s → %s", async (name, answer, status) => {
    answers.push(answer);
    // A bounce suppresses its recipient: each case mails its own.
    const id = await sendAndDeliver(t, `${name.replace(/\W+/g, "-")}@dest.test`);
    const recipient = await recipientOf(t, id);
    expect(recipient.status).toBe(status);
    expect(recipient.last_response).toBe(`SES ${answer.status} ${answer.type}: ${answer.message}`);
    expect(recipient.last_response).not.toContain(SES_SETTINGS.secret_access_key);
  });
});

test("an unreachable endpoint defers the delivery", async () => {
  const t = await sesApp("http://127.0.0.1:1");
  try {
    const recipient = await recipientOf(t, await sendAndDeliver(t));
    expect(recipient.status).toBe("deferred");
    expect(recipient.last_response).toContain("SES could not be reached");
  } finally {
    await t.close();
  }
});

test("a missing credential is an error at start naming it", async () => {
  await expect(createTestApp({ delivery: { default_provider: "ses" }, ses: { region: "eu-west-1" } })).rejects.toThrow(
    "ses.access_key_id: required for the SES provider ses",
  );
  await expect(
    createTestApp({ providers: { ses_eu: { kind: "ses", region: "eu-west-1", access_key_id: "AKID" } } }),
  ).rejects.toThrow("providers.ses_eu.secret_access_key: required for the SES provider ses_eu");
});

test("a domain sending through SES is asked to publish include:amazonses.com in its SPF record; one that does not, is not", async () => {
  const t = await sesApp(emulatorUrl);
  try {
    const spfOf = async (name: string) =>
      ((await t.json("GET", `/v1/domains/${name}`)).body.records as Array<{ record: string; value: string }>).find(
        (r) => r.record === "SPF",
      )!.value;
    expect(await spfOf("example.com")).toContain("include:amazonses.com");
    await t.json("POST", "/v1/domains", { body: { name: "direct.example" } });
    expect(await spfOf("direct.example")).not.toContain("amazonses");
    await t.json("PATCH", "/v1/domains/direct.example", { body: { providers: ["ses_eu", "capture"] } });
    expect(await spfOf("direct.example")).toContain("include:amazonses.com");
  } finally {
    await t.close();
  }
});
