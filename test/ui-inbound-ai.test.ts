/**
 * The admin UI's inbound and AI screens in a real browser (Debian's chromium via playwright-core) against apps
 * listening on loopback. Inbound: a DKIM-signed reply with an attachment is delivered to the MX over SMTP (SPF,
 * DKIM and DMARC judged through a DNS server on loopback, as in inbound-mx.test.ts), then found in the list with
 * its verdicts, opened with its sandboxed preview, the sent email it answers, an attachment whose signed link
 * serves the same bytes, and the raw download. AI: a subject scored offline with its findings; the writer without
 * a model shows what to configure; with an OpenAI-compatible server on loopback (as in ai.test.ts) a draft appears
 * with its preview and is saved as a draft template. At 1280 and 390 px, no console error, no request off
 * loopback, screenshots kept under test-output/.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { dkimSign } from "mailauth";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import {
  BROWSER_START_MS,
  browserPeer as checkBrowser,
  screenshot,
  startUi,
  type UiSession,
  openSection,
} from "./helpers/browser.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { smtpChat } from "./helpers/smtp-chat.ts";

const browserPeer = checkBrowser();

/** The draft the model on loopback writes, with the brief's placeholder kept. */
const DRAFT = {
  subject: "Your order {{order_number}} has shipped",
  html: '<!doctype html><html><head><meta charset="utf-8"></head><body><p>Hi {{first_name}},</p><p>Order {{order_number}} is on its way.</p><p><a href="{{tracking_url}}">Track your parcel</a></p></body></html>',
  text: "Hi {{first_name}},\n\nOrder {{order_number}} is on its way.\nTrack your parcel: {{tracking_url}}",
};

const completion = (content: string) =>
  Response.json({
    id: "c1",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  });

let dns: DnsServer;
let chat: ReturnType<typeof Bun.serve>;
let dkimKey: string;
/** With receiving on example.com, the DNS above and a model. */
let t: TestApp;
/** Without a model. */
let bare: TestApp;
let ui: UiSession;
let bareUi: UiSession;
let mxPort: number;

beforeAll(async () => {
  dns = await startDnsServer();
  const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
  dkimKey = pair.privateKey.export({ type: "pkcs8", format: "pem" }) as string;
  dns.set("sel._domainkey.dest.test", "TXT", [
    `v=DKIM1; k=rsa; p=${(pair.publicKey.export({ type: "spki", format: "der" }) as Buffer).toString("base64")}`,
  ]);
  dns.set("dest.test", "TXT", ["v=spf1 ip4:127.0.0.1 -all"]);
  dns.set("_dmarc.dest.test", "TXT", ["v=DMARC1; p=reject"]);

  // An OpenAI-compatible chat-completions server: subjects when asked to improve one, else the draft.
  chat = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (new URL(req.url).pathname !== "/v1/chat/completions") return new Response("not found", { status: 404 });
      const { messages } = (await req.json()) as { messages: Array<{ role: string; content: string }> };
      const asked = messages.find((m) => m.role === "user")!.content;
      if (asked.startsWith("Subject:"))
        return completion(JSON.stringify({ subjects: ["Your March invoice is ready", "Invoice 2031 from Acme"] }));
      return completion(JSON.stringify(DRAFT));
    },
  });

  t = await createTestApp({
    dns: { servers: dns.servers },
    ai: { base_url: `http://127.0.0.1:${chat.port}/v1`, model: "loopback-writer", timeout: "5s" },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true, receivingEnabled: true });
  ui = await startUi(t, browserPeer.available);
  mxPort = ui.listeners.find((l) => l.name === "mx")!.port;
  bare = await createTestApp();
  bareUi = await startUi(bare, browserPeer.available, ui.browser);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
  await bare?.close();
  await dns?.close();
  chat?.stop(true);
});

/** One SMTP transaction on the MX, as a sending MTA makes it; the reply to the end of data. */
async function deliver(message: string, envelope: { from: string; to: string }) {
  const smtp = await smtpChat(mxPort);
  try {
    expect((await smtp.send("EHLO mail.dest.test")).code).toBe(250);
    expect((await smtp.send(`MAIL FROM:<${envelope.from}>`)).code).toBe(250);
    expect((await smtp.send(`RCPT TO:<${envelope.to}>`)).code).toBe(250);
    expect((await smtp.send("DATA")).code).toBe(354);
    return await smtp.data(message);
  } finally {
    smtp.close();
  }
}

describe.skipIf(!browserPeer.available)("inbound and AI screens in chromium", () => {
  for (const width of [1280, 390]) {
    test(`at ${width} px: a reply received over SMTP is listed with its verdicts and opens with preview, attachment and raw`, async () => {
      const sent = await t.json("POST", "/v1/emails", {
        body: {
          from: "Acme <hello@example.com>",
          to: "friend@dest.test",
          subject: `Order ${width}`,
          html: "<p>Thanks.</p>",
        },
      });
      expect(sent.status).toBe(200);
      const sentRecord = (await t.json("GET", `/v1/emails/${sent.body.id}`)).body as { message_id: string };

      const subject = `Re: Order ${width}`;
      const attachment = randomBytes(3000);
      const lines = [
        "From: Friend <friend@dest.test>",
        "To: Acme <hello@example.com>",
        `Subject: ${subject}`,
        `Message-ID: <ui-${width}@dest.test>`,
        `In-Reply-To: ${sentRecord.message_id}`,
        `References: ${sentRecord.message_id}`,
        "Date: Mon, 23 Nov 2026 10:00:00 +0000",
        "MIME-Version: 1.0",
        'Content-Type: multipart/mixed; boundary="mixed"',
        "",
        "--mixed",
        'Content-Type: multipart/alternative; boundary="alt"',
        "",
        "--alt",
        "Content-Type: text/plain; charset=utf-8",
        "",
        "It arrived, thank you.",
        "--alt",
        "Content-Type: text/html; charset=utf-8",
        "",
        `<p>It <b>arrived</b>, thank you (${width}).</p><img src="https://tracker.example/open.gif" alt="">`,
        "--alt--",
        "--mixed",
        `Content-Type: application/octet-stream; name="photo-${width}.bin"`,
        `Content-Disposition: attachment; filename="photo-${width}.bin"`,
        "Content-Transfer-Encoding: base64",
        "",
        ...(attachment.toString("base64").match(/.{1,76}/g) ?? []),
        "--mixed--",
        "",
      ];
      const unsigned = lines.join("\r\n");
      const signed = await dkimSign(unsigned, {
        canonicalization: "relaxed/relaxed",
        signatureData: [{ signingDomain: "dest.test", selector: "sel", privateKey: dkimKey }],
      } as Parameters<typeof dkimSign>[1]);
      const raw = signed.signatures + unsigned;
      expect(await deliver(raw, { from: "friend@dest.test", to: "hello@example.com" })).toMatchObject({ code: 250 });

      const { page, problems } = await ui.open(width);
      await ui.signIn(page, t.liveKey);
      await openSection(page, "Inbound");
      // The list: the message with its three verdicts and the sent email it answers.
      const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: subject }) });
      for (const check of ["SPF pass", "DKIM pass", "DMARC pass"]) await row.getByText(check).waitFor();
      expect(await row.getByRole("link", { name: "a sent email" }).getAttribute("href")).toBe(
        `#/emails/${sent.body.id}`,
      );
      expect(await row.getByRole("cell", { name: "Friend <friend@dest.test>" }).count()).toBe(1);
      await screenshot(page, `ui-inbound-${width}`);

      // The detail: facts, authentication results, the preview in its sandbox, the attachment's link.
      await row.getByRole("link", { name: subject }).click();
      await page.getByRole("heading", { name: subject }).waitFor();
      const results = page.getByRole("table", { name: "Authentication results" });
      for (const check of ["SPF", "DKIM", "DMARC"])
        expect(
          await results
            .getByRole("row")
            .filter({ has: page.getByRole("rowheader", { name: check }) })
            .first()
            .textContent(),
        ).toContain("pass");
      expect(await results.textContent()).toContain("d=dest.test s=sel, aligned with From");
      expect(await page.getByRole("link", { name: `the sent email ${sent.body.id}` }).getAttribute("href")).toBe(
        `#/emails/${sent.body.id}`,
      );
      await page.locator(".facts").getByText(`<ui-${width}@dest.test>`).waitFor();
      const frame = page.locator("iframe.preview");
      expect(await frame.getAttribute("sandbox")).toBe("");
      await page.frameLocator("iframe.preview").getByText(`thank you (${width})`).waitFor();
      await page.getByText("1 remote resource (images, fonts, styles) not loaded", { exact: false }).waitFor();

      const link = page.getByRole("link", { name: `Download photo-${width}.bin` });
      const href = (await link.getAttribute("href"))!;
      expect(href).toStartWith(`${ui.base}/v1/emails/receiving/`);
      // The signed link needs no API key.
      const download = await fetch(href);
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(attachment)).toBe(true);

      // The raw message through the key (a blob download), byte for byte as it arrived.
      const [rawDownload] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Download raw (.eml)" }).click(),
      ]);
      expect(readFileSync((await rawDownload.path())!, "utf8")).toBe(raw);

      // A frame outside the viewport comes out blank in a full-page screenshot.
      await frame.scrollIntoViewIfNeeded();
      await screenshot(page, `ui-inbound-detail-${width}`);
      await page.getByRole("button", { name: "Text" }).click();
      await page.getByText("It arrived, thank you.").waitFor();
      expect(problems).toEqual([]);
      await page.close();
    }, 30_000);

    test(`at ${width} px: a subject is scored; the writer says what to configure without a model, and drafts with one`, async () => {
      // Without a model: scoring works offline, and the writer says what to configure.
      const offline = await bareUi.open(width);
      await bareUi.signIn(offline.page, bare.liveKey);
      await openSection(offline.page, "AI");
      await offline.page.getByLabel("Subject", { exact: true }).fill("FREE!!! ACT NOW");
      await offline.page.getByRole("button", { name: "Score subject" }).click();
      const score = Number(await offline.page.getByTestId("subject-score").textContent());
      expect(score).toBeLessThan(60);
      expect(await offline.page.getByRole("meter", { name: "Subject score" }).getAttribute("value")).toBe(
        String(score),
      );
      await offline.page.getByRole("list", { name: "Findings" }).getByText("that spam filters flag").waitFor();
      await offline.page.getByText("set [ai] base_url and model").first().waitFor();

      // Before anything is submitted, the writer says it needs a model; its button is disabled, with the reason.
      await offline.page.getByLabel("Brief").fill("Tell {{first_name}} that their order shipped");
      const write = offline.page.getByRole("button", { name: "Write draft" });
      expect(await write.isDisabled()).toBe(true);
      const reason = offline.page.locator(`#${await write.getAttribute("aria-describedby")}`);
      expect(await reason.textContent()).toContain(
        "The writer needs a model. No model is configured: set [ai] base_url and model",
      );
      expect(await offline.page.getByRole("alert").count()).toBe(0);
      await screenshot(offline.page, `ui-ai-without-model-${width}`);
      expect(offline.problems).toEqual([]);
      await offline.page.close();

      // With the model on loopback: suggestions, and a draft saved as a template.
      const { page, problems } = await ui.open(width);
      await ui.signIn(page, t.liveKey);
      await openSection(page, "AI");
      await page.locator("p.page-description code", { hasText: "loopback-writer" }).waitFor();
      expect(await page.getByRole("button", { name: "Write draft" }).isDisabled()).toBe(false);
      await page.getByLabel("Subject", { exact: true }).fill("invoice");
      await page.getByRole("button", { name: "Score subject" }).click();
      await page.getByRole("list", { name: "Suggestions" }).getByText("Your March invoice is ready").waitFor();

      await page.getByLabel("Brief").fill("Tell {{first_name}} that order {{order_number}} shipped");
      await page.getByLabel("Tone").fill("warm");
      await page.getByRole("textbox", { name: "Audience" }).fill("shoppers");
      await page.getByLabel("Format").selectOption("html");
      await page.getByLabel("Save as a draft template").check();
      await page.getByLabel("Template name").fill(`Shipped (AI ${width})`);
      await page.getByRole("button", { name: "Write draft" }).click();
      await page.getByTestId("draft-subject").getByText(DRAFT.subject).waitFor();
      expect(await page.locator("iframe.preview").getAttribute("sandbox")).toBe("");
      await page.frameLocator("iframe.preview").getByText("Track your parcel").waitFor();
      const templateHref = (await page.getByRole("link", { name: "Open the draft template" }).getAttribute("href"))!;
      const templateId = decodeURIComponent(templateHref.replace("#/templates/", ""));
      expect((await t.json("GET", `/v1/templates/${templateId}`)).body).toMatchObject({
        name: `Shipped (AI ${width})`,
        status: "draft",
        subject: DRAFT.subject,
      });
      await page.locator("iframe.preview").scrollIntoViewIfNeeded();
      await screenshot(page, `ui-ai-${width}`);
      expect(problems).toEqual([]);
      await page.close();
    }, 30_000);
  }
});
