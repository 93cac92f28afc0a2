/**
 * SES event records of both formats SES sends (configuration-set event publishing and identity feedback
 * notifications), parsed into what the lifecycle applies: each kind, its recipients with their status and diagnostic,
 * and what is not an SES event. Made by test/helpers/sns.ts as SES writes them.
 */
import { describe, expect, test } from "bun:test";
import {
  sesBounceEvent,
  sesComplaintEvent,
  sesDelayEvent,
  sesDeliveryEvent,
  sesRejectEvent,
  sesSendEvent,
} from "../../test/helpers/sns.ts";
import { parseSesEvent } from "./sns.ts";

const TOPIC = "arn:aws:sns:us-east-1:123456789012:mailroom-ses";
const SES_ID = "010001912a3b4c5d-6e7f8a9b-0c1d-2e3f-4a5b-6c7d8e9f0a1b-000000";

describe("parseSesEvent: configuration-set event publishing", () => {
  const parse = (event: object) => parseSesEvent(JSON.stringify(event));

  test("Send and Reject name mail.destination", () => {
    expect(parse(sesSendEvent(SES_ID, ["Ann@Example.org", "bob@example.org"]))).toMatchObject({
      kind: "send",
      sesMessageId: SES_ID,
      recipients: [
        { email: "ann@example.org", status: null, diagnostic: null },
        { email: "bob@example.org", status: null, diagnostic: null },
      ],
    });
    expect(parse(sesRejectEvent(SES_ID, ["ann@example.org"]))).toMatchObject({
      kind: "reject",
      rejectReason: "Bad content",
      recipients: [{ email: "ann@example.org" }],
    });
  });

  test("Delivery carries the SMTP response", () => {
    const event = sesDeliveryEvent(SES_ID, ["ann@example.org"]);
    expect(parse(event)).toEqual({
      kind: "delivery",
      sesMessageId: SES_ID,
      recipients: [{ email: "ann@example.org", status: null, diagnostic: "250 2.6.0 Message received" }],
      timestamp: event.delivery.timestamp,
    });
  });

  test.each([
    ["Permanent", "General", "5.1.1"],
    ["Permanent", "NoEmail", "5.1.1"],
    ["Permanent", "Suppressed", "5.1.1"],
    ["Permanent", "OnAccountSuppressionList", "5.1.1"],
    ["Transient", "MailboxFull", "5.2.2"],
    ["Transient", "MessageTooLarge", "5.3.4"],
    ["Transient", "ContentRejected", "5.7.1"],
    ["Transient", "AttachmentRejected", "5.7.1"],
  ] as const)("Bounce %s/%s", (bounceType, subType, status) => {
    const event = sesBounceEvent(SES_ID, "Gone@Example.org", bounceType, subType);
    expect(parse(event)).toEqual({
      kind: "bounce",
      sesMessageId: SES_ID,
      recipients: [
        { email: "gone@example.org", status, diagnostic: event.bounce.bouncedRecipients[0]!.diagnosticCode },
      ],
      bounceType,
      bounceSubType: subType,
      timestamp: event.bounce.timestamp,
    });
  });

  test("Complaint, with its feedback type or abuse when it has none", () => {
    expect(parse(sesComplaintEvent(SES_ID, "ann@example.org", "not-spam"))).toMatchObject({
      kind: "complaint",
      recipients: [{ email: "ann@example.org", status: null, diagnostic: null }],
      complaintFeedbackType: "not-spam",
    });
    const bare = sesComplaintEvent(SES_ID, "ann@example.org");
    delete (bare.complaint as { complaintFeedbackType?: string }).complaintFeedbackType;
    expect(parse(bare)?.complaintFeedbackType).toBe("abuse");
  });

  test("DeliveryDelay", () => {
    const event = sesDelayEvent(SES_ID, "ann@example.org", "MailboxFull");
    expect(parse(event)).toEqual({
      kind: "delivery_delay",
      sesMessageId: SES_ID,
      recipients: [
        { email: "ann@example.org", status: "4.4.1", diagnostic: "smtp; 421 4.4.1 Unable to connect to remote host" },
      ],
      delayType: "MailboxFull",
      timestamp: event.deliveryDelay.timestamp,
    });
  });

  test.each(["Open", "Click", "Rendering Failure", "Subscription"])("%s is other", (eventType) => {
    const event = { ...sesSendEvent(SES_ID, ["ann@example.org"]), eventType };
    expect(parse(event)).toMatchObject({ kind: "other", sesMessageId: SES_ID, recipients: [] });
  });
});

describe("parseSesEvent: identity feedback notifications", () => {
  const mail = {
    timestamp: "2026-03-02T10:15:03.000Z",
    source: "notifications@example.com",
    sourceArn: "arn:aws:ses:us-east-1:123456789012:identity/example.com",
    sourceIp: "192.0.2.10",
    sendingAccountId: "123456789012",
    callerIdentity: "mailroom",
    messageId: SES_ID,
    destination: ["ann@example.org"],
  };

  test("Bounce", () => {
    const record = {
      notificationType: "Bounce",
      bounce: {
        feedbackId: "0100018e2c4b0c43-5a1f0c2e-7c7a-4d40-9b55-8f5d7c3a1b2c-000000",
        bounceType: "Permanent",
        bounceSubType: "General",
        bouncedRecipients: [
          {
            emailAddress: "ann@example.org",
            action: "failed",
            status: "5.1.1",
            diagnosticCode: "smtp; 550 5.1.1 user unknown",
          },
        ],
        timestamp: "2026-03-02T10:15:04.000Z",
        remoteMtaIp: "198.51.100.25",
        reportingMTA: "dsn; a8-30.smtp-out.amazonses.com",
      },
      mail,
    };
    expect(parseSesEvent(JSON.stringify(record))).toEqual({
      kind: "bounce",
      sesMessageId: SES_ID,
      recipients: [{ email: "ann@example.org", status: "5.1.1", diagnostic: "smtp; 550 5.1.1 user unknown" }],
      bounceType: "Permanent",
      bounceSubType: "General",
      timestamp: "2026-03-02T10:15:04.000Z",
    });
  });

  test("Complaint", () => {
    const record = {
      notificationType: "Complaint",
      complaint: {
        userAgent: "Mozilla/5.0",
        complainedRecipients: [{ emailAddress: "ann@example.org" }],
        complaintFeedbackType: "abuse",
        arrivalDate: "2026-03-02T10:20:00.000Z",
        timestamp: "2026-03-02T10:20:01.000Z",
        feedbackId: "0100018e2c4b0c43-aaaa-000000",
      },
      mail,
    };
    expect(parseSesEvent(JSON.stringify(record))).toMatchObject({
      kind: "complaint",
      complaintFeedbackType: "abuse",
      recipients: [{ email: "ann@example.org" }],
    });
  });

  test("Delivery", () => {
    const record = {
      notificationType: "Delivery",
      mail,
      delivery: {
        timestamp: "2026-03-02T10:15:04.500Z",
        processingTimeMillis: 1500,
        recipients: ["ann@example.org"],
        smtpResponse: "250 ok dirdel",
        remoteMtaIp: "198.51.100.25",
        reportingMTA: "a8-30.smtp-out.amazonses.com",
      },
    };
    expect(parseSesEvent(JSON.stringify(record))).toMatchObject({
      kind: "delivery",
      recipients: [{ email: "ann@example.org", diagnostic: "250 ok dirdel" }],
    });
  });

  test("the subscription-succeeded notice, bad JSON and a record without mail.messageId are not events", () => {
    const notice = {
      notificationType: "AmazonSnsSubscriptionSucceeded",
      message:
        `You have successfully subscribed your Amazon SNS topic '${TOPIC}' to receive 'Bounce' notifications ` +
        "from Amazon SES for identity 'example.com'.",
    };
    expect(parseSesEvent(JSON.stringify(notice))).toBeNull();
    expect(parseSesEvent("{not json")).toBeNull();
    expect(parseSesEvent("null")).toBeNull();
    expect(
      parseSesEvent(JSON.stringify({ notificationType: "Bounce", mail: { ...mail, messageId: undefined } })),
    ).toBeNull();
  });
});
