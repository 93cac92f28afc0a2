/**
 * Templates end to end on the built executable (`npm run build` → dist/mailroom) through the official Resend SDK:
 * every template operation, an MJML template (recognised by its <mjml> root, since the SDK sends no `engine`)
 * rendered by the MJML compiler inside the executable, `emails.send({template: {id, variables}})` delivering the
 * rendered message to a real SMTP server on loopback, and the `email.sent` webhook naming the template. Finding 7:
 * a template that loops over its own variables is stopped inside the executable's CPU pool at its time budget, while
 * the SMTP relay greets at once.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { simpleParser } from "mailparser";
import type { Resend } from "resend";
import { ok, type ResendRig, startResendRig } from "./helpers/resend-sdk.ts";
import { smtpChat } from "./helpers/smtp-chat.ts";

const RENDER_BUDGET_MS = 1500;
let rig: ResendRig | undefined;
let resend: Resend;

beforeAll(async () => {
  rig = await startResendRig("e2e-templates", {
    env: { MAILROOM_LIMITS_TEMPLATE_RENDER_TIMEOUT: `${RENDER_BUDGET_MS}ms` },
    domains: ["example.com"],
  });
  resend = rig.resend;
  const webhook = ok(await resend.webhooks.create({ endpoint: rig.hooks.url, events: ["email.sent"] }));
  rig.hooks.secrets.push(webhook.signing_secret);
}, 30_000);

afterAll(() => rig?.close());

const ORDER_SHIPPED = `<mjml>
  <mj-body>
    <mj-section>
      <mj-column>
        <mj-text>Your order {{order}} is on its way, {{name}}.</mj-text>
        <mj-button href="{{tracking_url}}">Track it</mj-button>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

test("every template operation through the Resend SDK, then a send with the template", async () => {
  const created = await resend.templates.create({
    name: "Order shipped",
    alias: "order-shipped",
    subject: "Order {{order}} shipped",
    from: "Shop <orders@example.com>",
    html: ORDER_SHIPPED,
    variables: [
      { key: "order", type: "string" },
      { key: "name", type: "string", fallbackValue: "there" },
      { key: "tracking_url", type: "string" },
    ],
  });
  expect(created.error).toBeNull();
  const id = created.data!.id;
  expect((await resend.templates.get("order-shipped")).data).toMatchObject({
    id,
    engine: "mjml",
    status: "draft",
    has_unpublished_versions: true,
  });
  expect((await resend.templates.list()).data!.data.map((entry) => entry.id)).toEqual([id]);
  expect((await resend.templates.update(id, { name: "Order shipped (v2)" })).error).toBeNull();
  expect((await resend.templates.publish(id)).error).toBeNull();
  expect((await resend.templates.get(id)).data).toMatchObject({
    name: "Order shipped (v2)",
    status: "published",
    has_unpublished_versions: false,
  });
  const copy = (await resend.templates.duplicate(id)).data!;
  expect((await resend.templates.remove(copy.id)).data).toEqual({ object: "template", id: copy.id, deleted: true });
  expect((await resend.templates.get(copy.id)).error).toMatchObject({ name: "not_found", statusCode: 404 });

  const sent = await resend.emails.send({
    to: "buyer@dest.test",
    template: { id: "order-shipped", variables: { order: "A-1001", tracking_url: "https://track.example/A-1001" } },
  } as never);
  expect(sent.error).toBeNull();
  await rig!.smtp.waitFor(1);
  const delivered = await simpleParser(rig!.smtp.received[0]!.raw);
  expect(delivered.subject).toBe("Order A-1001 shipped");
  expect(delivered.from!.value).toEqual([{ name: "Shop", address: "orders@example.com" }]);
  expect(delivered.html).toContain("Your order A-1001 is on its way, there.");
  expect(delivered.html).toContain('href="https://track.example/A-1001"');
  expect(delivered.html).toContain("@media only screen and (min-width:480px)");
  expect(delivered.text).toContain("Your order A-1001 is on its way, there.");

  await rig!.hooks.waitFor(1, 10_000);
  const hook = rig!.hooks.received[0]!;
  expect(hook.verifiedWith).toEqual([0]);
  expect(hook.payload).toMatchObject({ type: "email.sent", data: { email_id: sent.data!.id, template_id: id } });
}, 30_000);

test("finding 7: in the executable, a template looping over its own variables is stopped at its budget while the relay greets at once", async () => {
  const loops = "{{#each @root}}".repeat(5) + "{{/each}}".repeat(5);
  const created = await resend.templates.create({
    name: "Loops",
    subject: "s",
    from: "Shop <orders@example.com>",
    html: loops,
  });
  expect((await resend.templates.publish(created.data!.id)).error).toBeNull();
  const variables = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`v${i}`, "x"]));
  const started = performance.now();
  const sending = resend.emails.send({ to: "buyer@dest.test", template: { id: created.data!.id, variables } } as never);
  await Bun.sleep(RENDER_BUDGET_MS / 3);
  // The finding's measure: on the event loop, this render held the SMTP greeting for as long as it ran.
  const connected = performance.now();
  const chat = await smtpChat(rig!.server.ports.submission!);
  const greetingMs = performance.now() - connected;
  chat.close();
  expect(chat.greeting.code).toBe(220);
  expect(greetingMs).toBeLessThan(500);
  const sent = await sending;
  expect(sent.error).toMatchObject({ name: "validation_error", statusCode: 400 });
  expect(sent.error!.message).toContain(`took longer than ${RENDER_BUDGET_MS} ms and was stopped`);
  expect(performance.now() - started).toBeGreaterThanOrEqual(RENDER_BUDGET_MS);
}, 30_000);
