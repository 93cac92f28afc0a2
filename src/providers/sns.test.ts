/**
 * SNS message verification against a loopback https server standing in for SNS (test/helpers/sns.ts): both
 * signature versions, tampering, the certificate URL's host rule (checked before anything is fetched), the topic
 * list, the certificate fetch's limits and cache, subscription confirmation. SES event records: ses-events.test.ts.
 * SNS's real hosts go to an offline guard that records what it was asked and refuses it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { AppError } from "../errors.ts";
import { ManualClock } from "../lib/clock.ts";
import { ConfigError } from "../lib/config-error.ts";
import { EndpointRefused, type EndpointGuard } from "../lib/endpoint-guard.ts";
import { createLogger, silentLogger } from "../lib/logger.ts";
import {
  sesDeliveryEvent,
  sesNotification,
  startSnsCertificateServer,
  type SnsCertificateServer,
} from "../../test/helpers/sns.ts";
import { createSnsVerifier, type SnsVerifierOptions } from "./sns.ts";

const TOPIC = "arn:aws:sns:us-east-1:123456789012:mailroom-ses";
const SES_ID = "010001912a3b4c5d-6e7f8a9b-0c1d-2e3f-4a5b-6c7d8e9f0a1b-000000";

let server: SnsCertificateServer;

beforeAll(async () => {
  server = await startSnsCertificateServer();
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
});

/** A guard that records what it was asked to resolve and refuses it: the production path without the network. */
function offlineGuard() {
  const resolved: string[] = [];
  const guard: EndpointGuard = {
    parse: (raw) => new URL(raw),
    async resolve(url) {
      resolved.push(url.href);
      throw new EndpointRefused("no network in this test");
    },
  };
  return { guard, resolved };
}

function verifier(options: Partial<SnsVerifierOptions> = {}) {
  const { guard, resolved } = offlineGuard();
  const sns = createSnsVerifier({
    topics: [TOPIC],
    timeoutMs: 2_000,
    guard,
    logger: silentLogger,
    testCertificateHost: server.host,
    ca: server.ca,
    ...options,
  });
  return Object.assign(sns, { resolved });
}

/** The AppError a promise rejects with. */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const notification = (topic = TOPIC) => sesNotification(sesDeliveryEvent(SES_ID, ["a@example.org"]), topic);

/** A signed notification whose SigningCertURL is `certificateUrl`. */
const signedWith = (certificateUrl: string, topic = TOPIC) => server.sign(notification(topic), "2", { certificateUrl });

const confirmRequests = () => server.requests.filter((request) => request.startsWith("/confirm"));

describe("verify", () => {
  test.each(["1", "2"] as const)(
    "SignatureVersion %s: a Notification with and without a Subject verifies",
    async (version) => {
      const sns = verifier();
      const plain = server.sign(notification(), version);
      expect(await sns.verify(plain)).toEqual(plain as never);
      const withSubject = server.sign({ ...notification(), Subject: "Amazon SES Email Event Notification" }, version);
      expect((await sns.verify(withSubject)).Subject).toBe("Amazon SES Email Event Notification");
    },
  );

  test.each(["1", "2"] as const)("SignatureVersion %s: a SubscriptionConfirmation verifies", async (version) => {
    const message = server.sign(server.subscriptionConfirmation(TOPIC), version);
    expect(await verifier().verify(message)).toMatchObject({ Type: "SubscriptionConfirmation", Token: message.Token });
  });

  test("a Subject added after signing, or one removed, does not verify", async () => {
    const sns = verifier();
    const added = { ...server.sign(notification(), "2"), Subject: "added" };
    expect((await refusal(sns.verify(added))).status).toBe(401);
    const { Subject: _removed, ...removed } = server.sign({ ...notification(), Subject: "signed" }, "2");
    expect((await refusal(sns.verify(removed))).status).toBe(401);
  });

  test("fields outside the envelope are not returned", async () => {
    const UnsubscribeURL = "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe";
    const message = { ...server.sign(notification(), "2"), Injected: "x", UnsubscribeURL };
    const verified = await verifier().verify(message);
    expect(verified).not.toHaveProperty("Injected");
    expect(verified.UnsubscribeURL).toBe(message.UnsubscribeURL);
  });

  test.each([
    [
      "a tampered Message",
      (signed: Record<string, string>) => ({
        ...signed,
        Message: signed.Message!.replace("a@example.org", "b@example.org"),
      }),
    ],
    ["a tampered Timestamp", (signed: Record<string, string>) => ({ ...signed, Timestamp: new Date(0).toISOString() })],
    ["the other signature version", (signed: Record<string, string>) => ({ ...signed, SignatureVersion: "1" })],
    [
      "a tampered Signature",
      (signed: Record<string, string>) => {
        const bytes = Buffer.from(signed.Signature!, "base64");
        bytes[10]! ^= 0x01;
        return { ...signed, Signature: bytes.toString("base64") };
      },
    ],
    [
      "a truncated Signature",
      (signed: Record<string, string>) => ({ ...signed, Signature: signed.Signature!.slice(0, 40) }),
    ],
  ])("%s is refused 401", async (_what, tamper) => {
    const error = await refusal(verifier().verify(tamper(server.sign(notification(), "2"))));
    expect(error.name).toBe("unauthorized");
    expect(error.status).toBe(401);
    expect(error.message).toBe("The SNS message signature does not verify.");
  });

  const unsigned = { Signature: "x", SignatureVersion: "2", SigningCertURL: "https://x/y.pem" };
  test.each([
    ["not an object", "text", ""],
    ["an array", [], ""],
    ["an unknown Type", { ...notification(), Type: "Announcement" }, "Type"],
    ["no Signature", { ...notification(), SignatureVersion: "2", SigningCertURL: "https://x/y.pem" }, "Signature"],
    ["a number as Message", { ...notification(), ...unsigned, Message: 1 }, "Message"],
    ["SignatureVersion 3", { ...notification(), ...unsigned, SignatureVersion: "3" }, "SignatureVersion"],
    [
      "a confirmation without its Token",
      { ...notification(), ...unsigned, Type: "SubscriptionConfirmation", SubscribeURL: "https://x/" },
      "Token",
    ],
  ])("%s is refused 400 naming the field", async (_what, body, path) => {
    const sns = verifier();
    const error = await refusal(sns.verify(body));
    expect(error.name).toBe("validation_error");
    expect(error.details?.map((detail) => detail.path)).toContain(path);
    expect(server.requests).toEqual([]);
  });

  test("a topic not in [sns] topics is refused 403 before any fetch", async () => {
    const sns = verifier();
    const others = [
      "arn:aws:sns:us-east-1:123456789012:other",
      "arn:aws:sns:us-east-1:210987654321:mailroom-ses",
      "mailroom-ses",
    ];
    for (const topic of others) {
      const error = await refusal(sns.verify(server.sign(notification(topic), "2")));
      expect(error.name).toBe("insufficient_scope");
      expect(error.status).toBe(403);
      expect(error.message).toContain(topic);
    }
    expect(server.requests).toEqual([]);
    expect(sns.resolved).toEqual([]);
  });

  test("a topic ARN that names no known SNS host is a configuration error", () => {
    const notTopics = [
      "mailroom-ses",
      "arn:aws:sqs:us-east-1:123456789012:q",
      "arn:aws-iso:sns:us-iso-east-1:123456789012:t",
    ];
    for (const topic of notTopics) {
      expect(() =>
        createSnsVerifier({ topics: [topic], timeoutMs: 1_000, guard: offlineGuard().guard, logger: silentLogger }),
      ).toThrow(ConfigError);
    }
  });
});

describe("replays", () => {
  const MINUTE = 60_000;
  /** A notification signed with its Timestamp `offset` ms from `clock`'s now. */
  const publishedAt = (clock: ManualClock, offset: number) => {
    const fields: Record<string, string> = {
      ...notification(),
      Timestamp: new Date(clock.now() + offset).toISOString(),
    };
    return server.sign(fields, "2");
  };
  const replayVerifier = () => {
    const clock = new ManualClock(Date.now());
    const warnings: Array<Record<string, unknown>> = [];
    const sns = verifier({ clock, logger: createLogger("warn", (line) => warnings.push(JSON.parse(line))) });
    return { sns, clock, warnings };
  };

  test.each([
    ["published 59 minutes ago", -59 * MINUTE],
    ["stamped 4 minutes ahead of this server's clock (drift)", 4 * MINUTE],
  ])("a notification %s is accepted", async (_when, offset) => {
    const { sns, clock, warnings } = replayVerifier();
    expect((await sns.verify(publishedAt(clock, offset))).Type).toBe("Notification");
    expect(warnings).toEqual([]);
  });

  test.each([
    ["published 61 minutes ago", -61 * MINUTE],
    ["published a year ago", -365 * 24 * 60 * MINUTE],
    ["stamped 6 minutes ahead of this server's clock", 6 * MINUTE],
  ])("a notification %s is refused 401 as a replay once its signature verifies, and logged", async (_when, offset) => {
    const { sns, clock, warnings } = replayVerifier();
    const message = publishedAt(clock, offset);
    const error = await refusal(sns.verify(message));
    expect(error.name).toBe("unauthorized");
    expect(error.message).toContain("refused as a replay");
    expect(warnings).toMatchObject([
      {
        level: "warn",
        msg: expect.stringContaining("SNS message refused as a replay"),
        sns_message_id: message.MessageId,
        timestamp: message.Timestamp,
      },
    ]);
  });

  test("a forged old message is refused for its signature, not logged as a replay", async () => {
    const { sns, clock, warnings } = replayVerifier();
    const forged = { ...publishedAt(clock, -2 * 60 * MINUTE), Message: "{}" };
    expect((await refusal(sns.verify(forged))).message).toBe("The SNS message signature does not verify.");
    expect(warnings).toEqual([]);
  });

  test("a signed Timestamp that is not SNS's ISO 8601 form is refused", async () => {
    const { sns, clock } = replayVerifier();
    const loose = new Date(clock.now()).toUTCString();
    expect((await refusal(sns.verify(server.sign({ ...notification(), Timestamp: loose }, "2")))).name).toBe(
      "unauthorized",
    );
  });
});

describe("SigningCertURL", () => {
  const path = "/SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem";

  test.each([
    ["the topic's region", TOPIC, `https://sns.us-east-1.amazonaws.com${path}`],
    ["upper case and the default port", TOPIC, `https://SNS.US-EAST-1.AMAZONAWS.COM:443${path}`],
    ["GovCloud", "arn:aws-us-gov:sns:us-gov-west-1:123456789012:t", `https://sns.us-gov-west-1.amazonaws.com${path}`],
    ["China", "arn:aws-cn:sns:cn-north-1:123456789012:t", `https://sns.cn-north-1.amazonaws.com.cn${path}`],
  ])("on SNS's host (%s) goes to the guard", async (_what, topic, url) => {
    const sns = verifier({ topics: [topic] });
    const error = await refusal(sns.verify(signedWith(url, topic)));
    expect(error.name).toBe("service_unavailable");
    expect(error.status).toBe(503);
    expect(sns.resolved).toEqual([new URL(url).href]);
  });

  test.each([
    ["another region", `https://sns.us-west-2.amazonaws.com${path}`],
    ["a look-alike host", `https://sns.us-east-1.amazonaws.com.evil${path}`],
    ["a host with a trailing dot", `https://sns.us-east-1.amazonaws.com.${path}`],
    ["the China suffix in the aws partition", `https://sns.us-east-1.amazonaws.com.cn${path}`],
    ["the host as a path", `https://evil.com/sns.us-east-1.amazonaws.com${path}`],
    ["the host as user info", `https://sns.us-east-1.amazonaws.com@evil.com${path}`],
    ["user info on the right host", `https://user:pass@sns.us-east-1.amazonaws.com${path}`],
    ["another port", `https://sns.us-east-1.amazonaws.com:8443${path}`],
    ["plain http", `http://sns.us-east-1.amazonaws.com${path}`],
    ["not a .pem", "https://sns.us-east-1.amazonaws.com/SimpleNotificationService.txt"],
    ["a .pem only in the query", "https://sns.us-east-1.amazonaws.com/cert?x=.pem"],
    ["not a URL", "sns.us-east-1.amazonaws.com/cert.pem"],
  ])("on %s is refused 400, nothing fetched", async (_what, url) => {
    const sns = verifier();
    const error = await refusal(sns.verify(signedWith(url)));
    expect(error.name).toBe("validation_error");
    expect(error.message).toContain("SigningCertURL");
    expect(sns.resolved).toEqual([]);
  });

  test.each([
    ["plain http", (url: URL) => url.href.replace("https:", "http:")],
    ["user info", (url: URL) => url.href.replace("https://", "https://user@")],
    ["another path", (url: URL) => `${url.origin}/certificate.txt`],
    ["another port", (url: URL) => url.href.replace(`:${url.port}`, `:${Number(url.port) === 1 ? 2 : 1}`)],
  ])("on the test host with %s is refused 400, the server asked nothing", async (_what, change) => {
    const error = await refusal(verifier().verify(signedWith(change(new URL(server.certificateUrl)))));
    expect(error.name).toBe("validation_error");
    expect(server.requests).toEqual([]);
  });
});

describe("certificate fetch", () => {
  const certificatePath = () => new URL(server.certificateUrl).pathname;

  test("a certificate is fetched once and kept for the next messages", async () => {
    const sns = verifier();
    await Promise.all([sns.verify(server.sign(notification(), "2")), sns.verify(server.sign(notification(), "1"))]);
    await sns.verify(server.sign(notification(), "2"));
    expect(server.requests).toEqual([certificatePath()]);
  });

  test("a redirect is not followed", async () => {
    const error = await refusal(verifier().verify(signedWith(server.redirectCertificateUrl)));
    expect(error.name).toBe("service_unavailable");
    expect(server.requests).toEqual([new URL(server.redirectCertificateUrl).pathname]);
  });

  test("a body over 16 KiB is refused", async () => {
    const error = await refusal(verifier().verify(signedWith(server.oversizeCertificateUrl)));
    expect(error.name).toBe("service_unavailable");
    expect(String((error.cause as Error).message)).toContain("larger");
  });

  test("a 404 is a 503, and failures are not kept", async () => {
    const sns = verifier();
    const missing = `https://${server.host}/SimpleNotificationService-missing.pem`;
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await refusal(sns.verify(signedWith(missing)));
      expect(error.status).toBe(503);
    }
    expect(server.requests).toEqual([
      "/SimpleNotificationService-missing.pem",
      "/SimpleNotificationService-missing.pem",
    ]);
  });

  test("an expired certificate is refused 401 and not kept", async () => {
    const sns = verifier({ clock: new ManualClock(Date.now() + 2 * 86_400_000) });
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await refusal(sns.verify(server.sign(notification(), "2")));
      expect(error.name).toBe("unauthorized");
      expect(error.message).toContain("expired");
    }
    expect(server.requests).toEqual([certificatePath(), certificatePath()]);
  });

  test("a kept certificate that expires is fetched again", async () => {
    const clock = new ManualClock(Date.now());
    const sns = verifier({ clock });
    await sns.verify(server.sign(notification(), "2"));
    clock.advance(2 * 86_400_000);
    expect((await refusal(sns.verify(server.sign(notification(), "2")))).name).toBe("unauthorized");
    expect(server.requests).toEqual([certificatePath(), certificatePath()]);
  });
});

describe("confirmSubscription", () => {
  test("visits the SubscribeURL once", async () => {
    const sns = verifier();
    const message = await sns.verify(server.sign(server.subscriptionConfirmation(TOPIC, "token-1"), "2"));
    await sns.confirmSubscription(message);
    expect(server.confirmations).toEqual(["token-1"]);
    const subscribeUrl = new URL(server.subscribeUrl("token-1"));
    expect(confirmRequests()).toEqual([subscribeUrl.pathname + subscribeUrl.search]);
  });

  test("a SubscribeURL off SNS's host is refused 400 and not visited", async () => {
    const sns = verifier();
    const elsewhere = [
      "https://evil.com/confirm?Token=x",
      server.subscribeUrl("t").replace("https:", "http:"),
      "https://sns.us-west-2.amazonaws.com/?Action=ConfirmSubscription",
    ];
    for (const url of elsewhere) {
      const message = await sns.verify(
        server.sign({ ...server.subscriptionConfirmation(TOPIC), SubscribeURL: url }, "2"),
      );
      const error = await refusal(sns.confirmSubscription(message));
      expect(error.name).toBe("validation_error");
      expect(error.message).toContain("SubscribeURL");
    }
    expect(confirmRequests()).toEqual([]);
    expect(sns.resolved).toEqual([]);
  });

  test("SNS's own host goes through the guard", async () => {
    const sns = verifier();
    const url = "https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=x&Token=y";
    const message = {
      ...(await sns.verify(server.sign(server.subscriptionConfirmation(TOPIC), "2"))),
      SubscribeURL: url,
    };
    expect((await refusal(sns.confirmSubscription(message))).name).toBe("service_unavailable");
    expect(sns.resolved).toEqual([url]);
  });

  test("an answer other than 2xx is a 503", async () => {
    const sns = verifier();
    const SubscribeURL = `https://${server.host}/elsewhere`;
    const signed = server.sign({ ...server.subscriptionConfirmation(TOPIC), SubscribeURL }, "2");
    const error = await refusal(sns.confirmSubscription(await sns.verify(signed)));
    expect(error.name).toBe("service_unavailable");
  });

  test("an UnsubscribeConfirmation is not confirmed", async () => {
    const sns = verifier();
    const unsubscribed = { ...server.subscriptionConfirmation(TOPIC), Type: "UnsubscribeConfirmation" };
    const message = await sns.verify(server.sign(unsubscribed, "2"));
    expect((await refusal(sns.confirmSubscription(message))).name).toBe("validation_error");
    expect(confirmRequests()).toEqual([]);
  });
});
