/**
 * The inbound MX end to end on the built executable (`npm run build` → dist/mailroom), with swaks as the sending
 * MTA over loopback: a bounce and a feedback report to the per-delivery return paths of messages sent through a
 * real SMTP server change those deliveries, suppress their recipients and fire verified webhooks; a DKIM-signed
 * reply to a receiving domain is stored with its SPF and DKIM verdicts (against a loopback DNS server), linked to
 * the message it answers, and announced by `email.received`; recipients the MX does not take mail for are refused
 * at RCPT with the exact reply. The tests run in order on one server: each sends to a recipient the earlier ones
 * have not suppressed, and the refusals forge the return path of the last message sent. Large and malformed
 * messages are in e2e-inbound-input.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { dkimSign } from "mailauth";
import { enhanced, replies, setUpInboundServer } from "./helpers/e2e-inbound.ts";
import { inboundFixture } from "./helpers/inbound-fixtures.ts";
import { swaksPeer } from "./helpers/peers.ts";
import type { SmtpDouble } from "./helpers/smtp-double.ts";

const peer = swaksPeer();

describe.skipIf(!peer.available)("inbound MX with swaks as the sending MTA", () => {
  let smtp: SmtpDouble | undefined;
  let dkimPrivateKey = "";
  const { api, sendOne, file, swaks, webhookOf, receivedByMessageId, transaction } = setUpInboundServer(
    (started) => ({ smtp, dkimPrivateKey } = started),
  );

  test("a 5.1.1 notification to a return path bounces the delivery Permanent, suppresses, and fires email.bounced", async () => {
    const sent = await sendOne("someone@dest.test", "Your receipt");
    // A notification travels with the null sender (RFC 5321 §4.5.5); swaks spells it "<>".
    const result = await swaks({ from: "<>", to: sent.returnPath, data: file(inboundFixture("postfix-5.1.1", sent)) });
    expect(result.output).toContain(" -> MAIL FROM:<>\n");
    expect(replies(result.output)).toContain("<- 250 2.0.0 Ok: received");
    expect(result.code).toBe(0);

    const record = (await api("GET", `/v1/emails/${sent.id}`)).body;
    expect(record.status).toBe("bounced");
    expect(record.recipients[0]).toMatchObject({ email: "someone@dest.test", status: "bounced" });
    const bounced = record.events.filter((e: { type: string }) => e.type === "email.bounced");
    expect(bounced).toHaveLength(1);
    expect(bounced[0].data.bounce.type).toBe("Permanent");

    const suppression = await api("GET", `/v1/suppressions/${encodeURIComponent("someone@dest.test")}`);
    expect(suppression.status).toBe(200);
    expect(suppression.body).toMatchObject({ origin: "bounce" });

    const hook = await webhookOf("email.bounced", (h) => h.payload.data.email_id === sent.id);
    expect(hook.verifiedWith).toEqual([0]);
    expect(hook.payload.data.bounce.type).toBe("Permanent");
  }, 15_000);

  test("a feedback report to a return path marks the delivery complained, suppresses, and fires email.complained", async () => {
    const sent = await sendOne("reader@dest.test", "Our newsletter");
    const result = await swaks({
      from: "feedback@arf.mail.yahoo.com",
      to: sent.returnPath,
      data: file(inboundFixture("arf-yahoo", sent)),
    });
    expect(replies(result.output)).toContain("<- 250 2.0.0 Ok: received");
    expect(result.code).toBe(0);

    const record = (await api("GET", `/v1/emails/${sent.id}`)).body;
    expect(record.status).toBe("complained");
    expect(record.recipients[0]).toMatchObject({ email: "reader@dest.test", status: "complained" });

    const suppression = await api("GET", `/v1/suppressions/${encodeURIComponent("reader@dest.test")}`);
    expect(suppression.status).toBe(200);
    expect(suppression.body).toMatchObject({ origin: "complaint" });

    const hook = await webhookOf("email.complained", (h) => h.payload.data.email_id === sent.id);
    expect(hook.verifiedWith).toEqual([0]);
  }, 15_000);

  test("a DKIM-signed reply to a receiving domain is stored with SPF and DKIM pass, linked, and fires email.received", async () => {
    // someone@ and reader@ are suppressed by now: the conversation is with a third correspondent.
    const sent = await sendOne("friend@dest.test", "Your order");
    const patched = await api("PATCH", "/v1/domains/example.com", { receiving: true });
    expect(patched.status).toBe(200);

    const unsigned = [
      "From: Friend <friend@dest.test>",
      "To: Acme <hello@example.com>",
      "Subject: Re: Your order",
      `Date: ${new Date().toUTCString().replace("GMT", "+0000")}`,
      "Message-ID: <reply-e2e@dest.test>",
      `In-Reply-To: ${sent.messageId}`,
      `References: ${sent.messageId}`,
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Thanks, it arrived. One question about the invoice.",
      "",
    ].join("\r\n");
    // mailauth's typings ask for top-level key fields, but the signer reads only signatureData.
    const signed = await dkimSign(unsigned, {
      signatureData: [{ signingDomain: "dest.test", selector: "e2e", privateKey: dkimPrivateKey }],
    } as Parameters<typeof dkimSign>[1]);
    expect(signed.errors).toEqual([]);
    const result = await swaks({
      from: "friend@dest.test",
      to: "hello@example.com",
      data: file(signed.signatures + unsigned),
    });
    expect(replies(result.output)).toContain("<- 250 2.0.0 Ok: received");
    expect(result.code).toBe(0);

    const { id } = await receivedByMessageId("<reply-e2e@dest.test>");
    const received = await api("GET", `/v1/emails/receiving/${id}`);
    expect(received.status).toBe(200);
    expect(received.body).toMatchObject({
      object: "email",
      id,
      subject: "Re: Your order",
      to: ["hello@example.com"],
      received_for: ["hello@example.com"],
      in_reply_to_email_id: sent.id,
      auto_reply: null,
    });
    expect(received.body.from).toContain("friend@dest.test");
    expect(received.body.text).toContain("One question about the invoice.");
    const { authentication } = received.body;
    expect(authentication.spf).toMatchObject({ result: "pass", domain: "dest.test" });
    expect(authentication.dkim).toContainEqual(
      expect.objectContaining({ result: "pass", domain: "dest.test", selector: "e2e" }),
    );
    expect(authentication.dmarc).toMatchObject({ result: "pass" });

    // The signed raw link needs no API key and gives the message as it arrived, signature and all.
    const raw = await fetch(received.body.raw.download_url);
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toStartWith("message/rfc822");
    // swaks ends DATA with CRLF.CRLF after the file's own last line break: one empty line more arrives.
    expect(await raw.text()).toBe(`${signed.signatures}${unsigned}\r\n`);

    const original = (await api("GET", `/v1/emails/${sent.id}`)).body;
    expect(original.events.map((e: { type: string }) => e.type)).toContain("email.received");

    const hook = await webhookOf("email.received", (h) => h.payload.data.email_id === id);
    expect(hook.verifiedWith).toEqual([0]);
    expect(hook.payload.data).toMatchObject({
      email_id: id,
      message_id: "<reply-e2e@dest.test>",
      subject: "Re: Your order",
      in_reply_to_email_id: sent.id,
      received_for: ["hello@example.com"],
    });
  }, 15_000);

  test("recipients the MX does not receive for are refused at RCPT with the exact reply", async () => {
    const unknown = await transaction("friend@dest.test", "someone@unknown.test");
    expect(unknown.mail.code).toBe(250);
    expect(enhanced(unknown.rcpt)).toEqual([550, "5.7.1"]);

    // The token's MAC is its last 16 characters: another value there names no delivery.
    const sent = smtp!.received.at(-1)!.mailFrom;
    const forgedToken = sent.replace(
      /-([a-z2-7]{16})@/,
      (_, mac: string) => `-${mac === "aaaaaaaaaaaaaaaa" ? "bbbbbbbbbbbbbbbb" : "aaaaaaaaaaaaaaaa"}@`,
    );
    expect(forgedToken).not.toBe(sent);
    const forged = await transaction("", forgedToken);
    expect(enhanced(forged.rcpt)).toEqual([550, "5.1.1"]);

    const quiet = await transaction("friend@dest.test", "hello@quiet.example");
    expect(enhanced(quiet.rcpt)).toEqual([550, "5.7.1"]);

    // swaks, as a real MTA would see it: the refusal ends the transaction before DATA.
    const refused = await swaks({
      from: "friend@dest.test",
      to: "someone@unknown.test",
      data: file("Subject: x\r\n\r\nx\r\n"),
    });
    expect(replies(refused.output)).toMatch(/<\*\* 550 5\.7\.1 /);
    // No reply of 354 (the transcript's "Trying 127.0.0.1:<port>" line may hold those digits: port 35407 did).
    expect(replies(refused.output)).not.toMatch(/^<(-|~|\*\*) 354/m);
    expect(refused.code).not.toBe(0);
  }, 15_000);
});
