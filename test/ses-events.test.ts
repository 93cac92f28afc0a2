/**
 * SES events through SNS (docs/delivery.md): a domain routed to a named SES provider (a scripted SES v2 endpoint that
 * answers with message ids), notifications signed in the test with a generated key whose certificate is served over
 * https on loopback (the one extra host test-only config may trust), for SignatureVersion 1 and 2: Delivery, Bounce
 * Permanent and Transient, Complaint, DeliveryDelay and Reject change statuses, suppressions and webhooks, matched by
 * SES's message id; a subscription is confirmed; tampered signatures, wrong and look-alike hosts, http URLs and
 * unknown topics are refused with 4xx and change nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import {
  sesBounceEvent,
  sesComplaintEvent,
  sesDelayEvent,
  sesDeliveryEvent,
  sesNotification,
  sesRejectEvent,
  sesSendEvent,
  startSnsCertificateServer,
  type SnsCertificateServer,
} from "./helpers/sns.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.ts";

const TOPIC = "arn:aws:sns:eu-west-1:123456789012:mailroom-ses-events";

let certificates: SnsCertificateServer;
let ses: ReturnType<typeof Bun.serve>;
let sesCalls = 0;
let receiver: WebhookReceiver;
let t: TestApp;

beforeAll(async () => {
  certificates = await startSnsCertificateServer();
  ses = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => Response.json({ MessageId: `0102018c-test-${++sesCalls}-000000` }),
  });
  receiver = await startWebhookReceiver();
  t = await createTestApp(
    {
      providers: {
        ses_eu: {
          kind: "ses",
          region: "eu-west-1",
          access_key_id: "AKIDTEST",
          secret_access_key: "secret",
          endpoint: `http://127.0.0.1:${ses.port}`,
        },
      },
      sns: { topics: [TOPIC], test_certificate_host: certificates.host },
      webhooks: { allow_private_networks: true },
    },
    { snsCa: certificates.ca },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true, providers: ["ses_eu"] });
  const hook = await t.json("POST", "/v1/webhooks", {
    body: {
      endpoint: receiver.url,
      events: ["email.delivered", "email.bounced", "email.complained", "email.delivery_delayed", "email.failed"],
    },
  });
  receiver.secrets.push(hook.body.signing_secret);
});

afterAll(async () => {
  await t.close();
  await receiver.close();
  ses.stop(true);
  await certificates.close();
});

beforeEach(() => {
  certificates.requests.length = 0;
});

/** Sends one message through SES and answers its SES message id and Mailroom email id. */
async function sentThroughSes(to: string) {
  const res = await t.json("POST", "/v1/emails", {
    body: { from: "hi@example.com", to, subject: "Hello", html: "<p>Hi</p>" },
  });
  expect(res.status).toBe(200);
  await t.app.services.worker.runOnce();
  const recipient = (await t.json("GET", `/v1/emails/${res.body.id}`)).body.recipients[0];
  expect(recipient).toMatchObject({ status: "sent", provider: "ses_eu" });
  return { emailId: res.body.id as string, sesId: recipient.provider_message_id as string };
}

const post = (body: unknown) =>
  t.json("POST", "/v1/providers/ses/sns", {
    key: null,
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "text/plain; charset=UTF-8", "x-amz-sns-message-type": "Notification" },
  });
const notify = (event: object, version: "1" | "2" = "2") =>
  post(certificates.sign(sesNotification(event, TOPIC), version));
const lookup = async (emailId: string) => (await t.json("GET", `/v1/emails/${emailId}`)).body;
const suppressed = async (email: string) =>
  (await t.json("GET", `/v1/suppressions/${encodeURIComponent(email)}`)).status === 200;
/** Sorted: webhooks pending together are posted concurrently, so their arrival order is not promised. */
const webhookTypes = async (emailId: string) => {
  await t.app.services.webhookDispatcher.runOnce();
  return receiver.received
    .filter((w) => w.payload.data.email_id === emailId)
    .map((w) => w.payload.type)
    .sort();
};

describe.each(["1", "2"] as const)("SignatureVersion %s", (version) => {
  test("Delivery → delivered, with its webhook", async () => {
    const { emailId, sesId } = await sentThroughSes(`delivered-${version}@dest.test`);
    const res = await notify(sesDeliveryEvent(sesId, [`delivered-${version}@dest.test`]), version);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: "Notification", applied: true });
    const record = await lookup(emailId);
    expect(record.status).toBe("delivered");
    expect(record.recipients[0].status).toBe("delivered");
    expect(await webhookTypes(emailId)).toEqual(["email.delivered"]);
    // SNS delivers at least once: the same notification again changes nothing.
    expect((await notify(sesDeliveryEvent(sesId, [`delivered-${version}@dest.test`]), version)).body.applied).toBe(
      false,
    );
  });

  test("Bounce Permanent → bounced and suppressed", async () => {
    const to = `gone-${version}@dest.test`;
    const { emailId, sesId } = await sentThroughSes(to);
    expect((await notify(sesBounceEvent(sesId, to, "Permanent", "NoEmail"), version)).status).toBe(200);
    const record = await lookup(emailId);
    expect(record.recipients[0].status).toBe("bounced");
    const bounced = record.events.find((e: { type: string }) => e.type === "email.bounced");
    expect(bounced.data.bounce).toMatchObject({ type: "Permanent", subType: "NoEmail" });
    expect(await suppressed(to)).toBe(true);
    expect(await webhookTypes(emailId)).toEqual(["email.bounced"]);
  });

  test("Bounce Transient → bounced, not suppressed", async () => {
    const to = `full-${version}@dest.test`;
    const { emailId, sesId } = await sentThroughSes(to);
    await notify(sesBounceEvent(sesId, to, "Transient", "MailboxFull"), version);
    const record = await lookup(emailId);
    expect(record.recipients[0].status).toBe("bounced");
    expect(record.events.find((e: { type: string }) => e.type === "email.bounced").data.bounce).toMatchObject({
      type: "Transient",
      subType: "MailboxFull",
    });
    expect(await suppressed(to)).toBe(false);
  });

  test("Complaint → complained and suppressed", async () => {
    const to = `angry-${version}@dest.test`;
    const { emailId, sesId } = await sentThroughSes(to);
    await notify(sesDeliveryEvent(sesId, [to]), version);
    await notify(sesComplaintEvent(sesId, to), version);
    expect((await lookup(emailId)).recipients[0].status).toBe("complained");
    expect(await suppressed(to)).toBe(true);
    expect(await webhookTypes(emailId)).toEqual(["email.complained", "email.delivered"]);
  });

  test("DeliveryDelay → delivery_delayed; a later Delivery still delivers", async () => {
    const to = `slow-${version}@dest.test`;
    const { emailId, sesId } = await sentThroughSes(to);
    await notify(sesDelayEvent(sesId, to), version);
    let record = await lookup(emailId);
    expect(record.status).toBe("delivery_delayed");
    expect(record.recipients[0].status).toBe("sent");
    await notify(sesDeliveryEvent(sesId, [to]), version);
    record = await lookup(emailId);
    expect(record.recipients[0].status).toBe("delivered");
    expect(await webhookTypes(emailId)).toEqual(["email.delivered", "email.delivery_delayed"]);
  });

  test("a notification SNS delivers twice is applied once", async () => {
    const to = `twice-${version}@dest.test`;
    const { emailId, sesId } = await sentThroughSes(to);
    const signed = certificates.sign(sesNotification(sesDelayEvent(sesId, to), TOPIC), version);
    expect((await post(signed)).body.applied).toBe(true);
    expect((await post(signed)).body.applied).toBe(false);
    expect(
      (await lookup(emailId)).events.filter((e: { type: string }) => e.type === "email.delivery_delayed"),
    ).toHaveLength(1);
  });
});

test("Reject → failed; Send changes nothing", async () => {
  const to = "virus@dest.test";
  const { emailId, sesId } = await sentThroughSes(to);
  expect((await notify(sesSendEvent(sesId, [to]))).body).toEqual({ type: "Notification", applied: false });
  expect((await lookup(emailId)).recipients[0].status).toBe("sent");
  await notify(sesRejectEvent(sesId, [to]));
  const record = await lookup(emailId);
  expect(record.recipients[0].status).toBe("failed");
  expect(await webhookTypes(emailId)).toEqual(["email.failed"]);
});

test("an event about a message SES never took for us is acknowledged and changes nothing", async () => {
  const res = await notify(sesBounceEvent("0102018c-unknown-000000", "someone@dest.test", "Permanent"));
  expect(res.status).toBe(200);
  expect(res.body.applied).toBe(false);
  expect(await suppressed("someone@dest.test")).toBe(false);
});

test("a subscription confirmation is confirmed by visiting its SubscribeURL", async () => {
  const res = await post(certificates.sign(certificates.subscriptionConfirmation(TOPIC, "token-123"), "1"));
  expect(res.status).toBe(200);
  expect(certificates.confirmations).toEqual(["token-123"]);
});

describe("refusals change nothing", () => {
  const cases: Array<[string, (sesId: string, to: string) => unknown, number]> = [
    [
      "a tampered signature",
      (sesId, to) => ({
        ...certificates.sign(sesNotification(sesBounceEvent(sesId, to, "Permanent"), TOPIC), "2"),
        Signature: certificates.sign(sesNotification({}, TOPIC), "2").Signature,
      }),
      401,
    ],
    [
      "a tampered message",
      (sesId, to) => ({
        ...certificates.sign(sesNotification(sesDeliveryEvent(sesId, [to]), TOPIC), "2"),
        Message: JSON.stringify(sesBounceEvent(sesId, to, "Permanent")),
      }),
      401,
    ],
    [
      "a certificate on another host",
      (sesId, to) =>
        certificates.sign(sesNotification(sesBounceEvent(sesId, to, "Permanent"), TOPIC), "2", {
          certificateUrl: "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-x.pem",
        }),
      400,
    ],
    [
      "a look-alike host",
      (sesId, to) =>
        certificates.sign(sesNotification(sesBounceEvent(sesId, to, "Permanent"), TOPIC), "2", {
          certificateUrl: "https://sns.us-east-1.amazonaws.com.evil/SimpleNotificationService-x.pem",
        }),
      400,
    ],
    [
      "an http certificate URL",
      (sesId, to) =>
        certificates.sign(sesNotification(sesBounceEvent(sesId, to, "Permanent"), TOPIC), "2", {
          certificateUrl: certificates.certificateUrl.replace("https:", "http:"),
        }),
      400,
    ],
    [
      "an unknown topic",
      (sesId, to) =>
        certificates.sign(
          sesNotification(sesBounceEvent(sesId, to, "Permanent"), "arn:aws:sns:eu-west-1:123456789012:someone-else"),
          "2",
        ),
      403,
    ],
    ["a body that is not JSON", () => "Type=Notification", 400],
    [
      "a genuine notification published more than an hour ago (a replay)",
      (sesId, to) =>
        certificates.sign(
          {
            ...sesNotification(sesBounceEvent(sesId, to, "Permanent"), TOPIC),
            Timestamp: new Date(Date.now() - 61 * 60_000).toISOString(),
          },
          "2",
        ),
      401,
    ],
  ];
  test.each(cases.map(([name, build, status]) => [name, status, build] as const))(
    "%s → %i",
    async (_name, status, build) => {
      const to = `refused-${status}-${Math.random().toString(36).slice(2, 8)}@dest.test`;
      const { emailId, sesId } = await sentThroughSes(to);
      const res = await post(build(sesId, to));
      expect(res.status).toBe(status);
      expect(res.body.statusCode).toBe(status);
      expect((await lookup(emailId)).recipients[0].status).toBe("sent");
      expect(await suppressed(to)).toBe(false);
      if (status === 400 || status === 403) expect(certificates.requests).toEqual([]);
    },
  );
});
