/**
 * What the inbound MX does with large and malformed messages, end to end on the built executable (`npm run build`
 * → dist/mailroom) with swaks and a raw socket as the sending MTA over loopback: a 10 MiB attachment comes back byte
 * for byte from its signed link without an API key; an oversized message is refused with 552 5.3.4; a broken MIME
 * boundary, 8-bit header bytes, bare LF line endings and NUL bytes are each accepted, kept whole and readable; and
 * the server stays up through all of it. example.com receives mail, as the reply test in e2e-inbound.test.ts turns
 * it on.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import { ATTACHMENT_BYTES, MAX_MESSAGE_BYTES, MIB, replies, setUpInboundServer } from "./helpers/e2e-inbound.ts";
import { swaksPeer } from "./helpers/peers.ts";
import type { MailroomProcess } from "./helpers/process.ts";

const peer = swaksPeer();

describe.skipIf(!peer.available)("inbound MX with swaks as the sending MTA", () => {
  let server: MailroomProcess | undefined;
  let key = "";
  const { api, file, swaks, receivedByMessageId, transaction } = setUpInboundServer(
    (started) => ({ server, key } = started),
  );

  beforeAll(async () => {
    expect((await api("PATCH", "/v1/domains/example.com", { receiving: true })).status).toBe(200);
  });

  test("a 10 MiB attachment comes back byte for byte from its signed download_url, without an API key", async () => {
    const content = randomBytes(ATTACHMENT_BYTES);
    const base64 = content.toString("base64").replace(/.{76}/g, "$&\r\n");
    const message = [
      "From: Friend <friend@dest.test>",
      "To: hello@example.com",
      "Subject: The big file",
      "Message-ID: <big-attachment@dest.test>",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="big-boundary"',
      "",
      "--big-boundary",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "The file is attached.",
      "--big-boundary",
      'Content-Type: application/octet-stream; name="measurements.bin"',
      'Content-Disposition: attachment; filename="measurements.bin"',
      "Content-Transfer-Encoding: base64",
      "",
      base64.trimEnd(),
      "--big-boundary--",
      "",
    ].join("\r\n");
    expect(message.length).toBeLessThan(MAX_MESSAGE_BYTES);
    const result = await swaks({ from: "friend@dest.test", to: "hello@example.com", data: file(message) });
    expect(replies(result.output)).toContain("<- 250 2.0.0 Ok: received");
    expect(result.code).toBe(0);

    const { id } = await receivedByMessageId("<big-attachment@dest.test>");
    const listed = await api("GET", `/v1/emails/receiving/${id}/attachments`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    const attachment = listed.body.data[0];
    expect(attachment).toMatchObject({
      filename: "measurements.bin",
      content_type: "application/octet-stream",
      content_disposition: "attachment",
      size: ATTACHMENT_BYTES,
    });

    const one = await api("GET", `/v1/emails/receiving/${id}/attachments/${attachment.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: attachment.id, filename: "measurements.bin", size: ATTACHMENT_BYTES });

    const download = await fetch(attachment.download_url);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/octet-stream");
    expect(download.headers.get("content-disposition")).toStartWith('attachment; filename="measurements.bin"');
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.length).toBe(ATTACHMENT_BYTES);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(createHash("sha256").update(content).digest("hex"));

    // The link is what grants access: the same path without it needs a key.
    expect((await fetch(new URL(new URL(attachment.download_url).pathname, server!.baseUrl))).status).toBe(401);
  }, 30_000);

  describe("bad input gets a clear reply and never takes the server down", () => {
    test("a message over the size limit is refused with 552 5.3.4", async () => {
      const oversized = [
        "From: friend@dest.test",
        "To: hello@example.com",
        "Subject: Too big",
        "Message-ID: <too-big@dest.test>",
        "",
        randomBytes(12 * MIB)
          .toString("base64")
          .replace(/.{76}/g, "$&\r\n"),
        "",
      ].join("\r\n");
      expect(oversized.length).toBeGreaterThan(MAX_MESSAGE_BYTES);
      const result = await swaks({ from: "friend@dest.test", to: "hello@example.com", data: file(oversized) });
      expect(replies(result.output)).toMatch(/<\*\* 552 5\.3\.4 /);
      expect(result.code).not.toBe(0);
      const list = await api("GET", "/v1/emails/receiving?limit=100");
      expect(list.body.data.map((row: { message_id: string | null }) => row.message_id)).not.toContain(
        "<too-big@dest.test>",
      );
    }, 30_000);

    /** Delivers `raw` exactly, expects 250, and reads it back: the parsed record and the raw bytes. */
    const acceptedAndReadable = async (raw: Buffer, messageId: string) => {
      const { end } = await transaction("friend@dest.test", "hello@example.com", raw);
      expect(end?.code).toBe(250);
      expect(end?.text).toBe("2.0.0 Ok: received");
      const { id } = await receivedByMessageId(messageId);
      const record = await api("GET", `/v1/emails/receiving/${id}`);
      expect(record.status).toBe(200);
      const stored = await fetch(`${server!.baseUrl}/v1/emails/receiving/${id}/raw`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(stored.status).toBe(200);
      expect(stored.headers.get("content-type")).toStartWith("message/rfc822");
      // Nothing lost: the stored message is the bytes sent.
      expect(Buffer.from(await stored.arrayBuffer()).equals(raw)).toBe(true);
      return record.body;
    };

    test("a multipart message with a broken boundary is accepted and readable", async () => {
      // A stray boundary nobody declared, a base64 part that is not base64, and no closing delimiter.
      const raw = Buffer.from(
        [
          "From: friend@dest.test",
          "To: hello@example.com",
          "Subject: Broken boundary",
          "Message-ID: <broken-mime@dest.test>",
          "MIME-Version: 1.0",
          'Content-Type: multipart/mixed; boundary="declared"',
          "",
          "--declared",
          "Content-Type: text/plain",
          "",
          "Readable part.",
          "--other",
          "Content-Type: text/plain",
          "",
          "Inside a boundary that was never declared.",
          "--declared",
          "Content-Type: application/octet-stream",
          "Content-Transfer-Encoding: base64",
          "",
          "!!! not base64 at all !!!",
          "",
        ].join("\r\n"),
      );
      const record = await acceptedAndReadable(raw, "<broken-mime@dest.test>");
      expect(record.subject).toBe("Broken boundary");
      expect(record.text).toContain("Readable part.");
      expect(record.text).toContain("Inside a boundary that was never declared.");
    });

    test("raw 8-bit bytes in headers are accepted and readable", async () => {
      const raw = Buffer.concat([
        Buffer.from("From: Fran\xe7ois <friend@dest.test>\r\n", "latin1"),
        Buffer.from(
          "To: hello@example.com\r\nSubject: Grüße aus Köln\r\nMessage-ID: <eight-bit@dest.test>\r\nX-Note: ünïcödé\r\n\r\nBody.\r\n",
          "utf8",
        ),
      ]);
      const record = await acceptedAndReadable(raw, "<eight-bit@dest.test>");
      expect(record.subject).toBe("Grüße aus Köln");
      expect(record.from).toContain("friend@dest.test");
      expect(record.text).toContain("Body.");
      // UTF-8 in headers (RFC 6532) reads the same in the header map as in the parsed fields.
      expect(record.headers.Subject).toBe("Grüße aus Köln");
      expect(record.headers["X-Note"]).toBe("ünïcödé");
    });

    test("bare LF line endings are accepted and readable", async () => {
      const raw = Buffer.from(
        "From: friend@dest.test\nTo: hello@example.com\nSubject: Bare line feeds\nMessage-ID: <bare-lf@dest.test>\n\nFirst line.\nSecond line.\r\n",
      );
      const record = await acceptedAndReadable(raw, "<bare-lf@dest.test>");
      expect(record.subject).toBe("Bare line feeds");
      expect(record.text).toContain("First line.");
      expect(record.text).toContain("Second line.");
    });

    test("NUL bytes in the body are accepted and readable", async () => {
      const raw = Buffer.from(
        "From: friend@dest.test\r\nTo: hello@example.com\r\nSubject: Nulls\r\nMessage-ID: <nul-bytes@dest.test>\r\n\r\nbefore\0after\r\n",
      );
      const record = await acceptedAndReadable(raw, "<nul-bytes@dest.test>");
      expect(record.subject).toBe("Nulls");
      // The store holds text without NUL: the parsed text marks it, the raw message (checked above) keeps it.
      expect(record.text).toContain("before\uFFFDafter");
    });

    test("afterwards the server is healthy and still accepts ordinary mail", async () => {
      expect((await fetch(`${server!.baseUrl}/healthz`)).status).toBe(200);
      expect(server!.proc.exitCode).toBeNull();
      const result = await swaks({
        from: "friend@dest.test",
        to: "hello@example.com",
        data: file(
          "From: friend@dest.test\r\nTo: hello@example.com\r\nSubject: Still here\r\nMessage-ID: <still-here@dest.test>\r\n\r\nHello again.\r\n",
        ),
      });
      expect(replies(result.output)).toContain("<- 250 2.0.0 Ok: received");
      expect(result.code).toBe(0);
      const { id } = await receivedByMessageId("<still-here@dest.test>");
      expect((await api("GET", `/v1/emails/receiving/${id}`)).body.subject).toBe("Still here");
    });
  });
});
