/**
 * Received mail through the official Resend Node SDK, unchanged but for its base URL: `emails.receiving.list`,
 * `get` and the attachments' `list` and `get` read what the MX stored, in the SDK's own types; the download URL
 * it hands out serves the attachment without an API key.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Resend } from "resend";
import { createTestApp, type TestApp } from "./helpers/app.ts";

let t: TestApp;
let resend: Resend;
let receivedId: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true, receivingEnabled: true });
  const listeners = await t.app.start();
  resend = new Resend(t.liveKey, { baseUrl: `http://127.0.0.1:${listeners.find((l) => l.name === "http")!.port}/v1` });
  const message = [
    "From: Someone <someone@dest.test>",
    "To: hello@example.com",
    "Cc: team@example.com",
    "Subject: Re: Order 1234",
    "Message-ID: <sdk-1@dest.test>",
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="b"',
    "",
    "--b",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "See the invoice attached.",
    "--b",
    'Content-Type: application/pdf; name="invoice.pdf"',
    'Content-Disposition: attachment; filename="invoice.pdf"',
    "Content-Transfer-Encoding: base64",
    "",
    Buffer.from("%PDF-1.4 not really").toString("base64"),
    "--b--",
    "",
  ].join("\r\n");
  const [outcome] = await t.app.services.inbound.receive(Buffer.from(message), {
    from: "someone@dest.test",
    to: ["hello@example.com", "team@example.com"],
  });
  expect(outcome).toMatchObject({ handled: "stored" });
  receivedId = (outcome as { receivedEmailId: string }).receivedEmailId;
});

afterAll(() => t.close());

test("emails.receiving.list and get", async () => {
  const listed = await resend.emails.receiving.list({ limit: 10 });
  expect(listed.error).toBeNull();
  expect(listed.data).toMatchObject({
    object: "list",
    has_more: false,
    data: [
      {
        id: receivedId,
        from: "Someone <someone@dest.test>",
        to: ["hello@example.com"],
        cc: ["team@example.com"],
        subject: "Re: Order 1234",
        received_for: ["hello@example.com", "team@example.com"],
      },
    ],
  });

  const got = await resend.emails.receiving.get(receivedId);
  expect(got.error).toBeNull();
  expect(got.data).toMatchObject({
    object: "email",
    id: receivedId,
    text: "See the invoice attached.",
    html: null,
    message_id: "<sdk-1@dest.test>",
    attachments: [{ filename: "invoice.pdf", content_type: "application/pdf", size: 19 }],
  });
  expect(got.data!.raw!.download_url).toContain(`/v1/emails/receiving/${receivedId}/raw?`);

  const missing = await resend.emails.receiving.get("00000000-0000-7000-8000-000000000000");
  expect(missing.error).toMatchObject({ name: "not_found", statusCode: 404 });
});

test("emails.receiving.attachments.list and get; the download URL needs no key", async () => {
  const listed = await resend.emails.receiving.attachments.list({ emailId: receivedId });
  expect(listed.error).toBeNull();
  const [attachment] = listed.data!.data;
  expect(attachment).toMatchObject({
    filename: "invoice.pdf",
    content_type: "application/pdf",
    content_disposition: "attachment",
    size: 19,
  });
  const got = await resend.emails.receiving.attachments.get({ emailId: receivedId, id: attachment!.id });
  expect(got.data).toMatchObject({ object: "attachment", id: attachment!.id, filename: "invoice.pdf" });
  const download = await fetch(got.data!.download_url);
  expect(download.headers.get("content-type")).toBe("application/pdf");
  expect(await download.text()).toBe("%PDF-1.4 not really");
});
