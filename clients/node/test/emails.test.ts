/**
 * Sending against the server: a send with attachments and tags followed to `sent` at the loopback smarthost, the
 * look-up, list filters, attachments and raw message; batches strict and permissive; idempotency; rescheduling and
 * cancelling; a send from a published template; a React Email component.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createElement } from "react";
import type { Email, Mailroom } from "@mailroom/node";
import { env, live, loadLibrary, ok, PACKAGE_DIR, unique, waitFor, type Library } from "./support.ts";

let lib: Library;
let mailroom: Mailroom;
let from: string;

beforeAll(async () => {
  lib = await loadLibrary();
  if (!live) return;
  mailroom = new lib.Mailroom(env("MAILROOM_API_KEY"), { baseUrl: env("MAILROOM_BASE_URL") });
  from = env("MAILROOM_FROM");
}, 120_000);

/** Polls the look-up record until `status` is reached (at most 15 s). */
async function untilStatus(id: string, status: Email["status"]): Promise<Email> {
  const seen: Email[] = [];
  try {
    return await waitFor(async () => {
      const email = ok(await mailroom.emails.get(id));
      seen.push(email);
      return email.status === status ? email : undefined;
    }, `email ${id} to be ${status}`);
  } catch (error) {
    const last = seen.at(-1);
    throw new Error(
      `${(error as Error).message}; last seen: ${JSON.stringify(last && { status: last.status, recipients: last.recipients })}`,
    );
  }
}

const HOUR = 60 * 60 * 1000;

describe.skipIf(!live)("emails", () => {
  test("send with attachments and tags; the email reaches the smarthost (status sent); look-up, list, attachments, raw", async () => {
    const to = `${unique("reader")}@example.org`;
    const tag = unique("t").replace(/[^A-Za-z0-9_-]/g, "_");
    const sent = await mailroom.emails.send({
      from,
      to: [to],
      subject: "Your receipt",
      html: "<p>Thanks for your order.</p>",
      text: "Thanks for your order.",
      reply_to: "help@example.com",
      tags: [
        { name: "kind", value: "receipt" },
        { name: "run", value: tag },
      ],
      attachments: [
        {
          filename: "receipt.txt",
          content: Buffer.from("Paid in full.").toString("base64"),
          content_type: "text/plain",
        },
        { filename: "bytes.bin", content: new Uint8Array([0, 1, 2, 3, 254, 255]) },
      ],
    });
    expect(sent.error).toBeNull();
    const id = sent.data!.id;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const email = await untilStatus(id, "sent");
    expect(email.object).toBe("email");
    expect(email.to).toEqual([to]);
    expect(email.reply_to).toEqual(["help@example.com"]);
    expect(email.tags).toContainEqual({ name: "kind", value: "receipt" });
    expect(email.recipients[0]).toMatchObject({ email: to, status: "sent" });
    expect(email.events.map((event) => event.type)).toContain("email.sent");

    const listed = ok(await mailroom.emails.list({ tag: `run:${tag}`, limit: 10 }));
    expect(listed.object).toBe("list");
    expect(listed.data.map((item) => item.id)).toEqual([id]);
    expect(ok(await mailroom.emails.list({ to, status: "sent" })).data.map((item) => item.id)).toEqual([id]);

    const attachments = ok(await mailroom.emails.attachments.list({ emailId: id }));
    expect(attachments.data.map((attachment) => attachment.filename).sort()).toEqual(["bytes.bin", "receipt.txt"]);
    const receipt = attachments.data.find((attachment) => attachment.filename === "receipt.txt")!;
    const one = ok(await mailroom.emails.attachments.get({ emailId: id, id: receipt.id }));
    expect(one.size).toBe("Paid in full.".length);
    expect(await (await fetch(one.download_url)).text()).toBe("Paid in full.");
    const bytes = attachments.data.find((attachment) => attachment.filename === "bytes.bin")!;
    expect([...new Uint8Array(await (await fetch(bytes.download_url)).arrayBuffer())]).toEqual([0, 1, 2, 3, 254, 255]);

    const raw = ok(await mailroom.emails.raw(id));
    expect(raw).toContain("Subject: Your receipt");
    expect(raw).toContain("receipt.txt");
  }, 30_000);

  test("batch strict: every message sent, or none with details by index", async () => {
    const items = [1, 2].map((n) => ({
      from,
      to: `${unique(`batch${n}`)}@example.org`,
      subject: `Batch ${n}`,
      html: `<p>${n}</p>`,
    }));
    const sent = ok(await mailroom.batch.send(items));
    expect(sent.data).toHaveLength(2);
    for (const { id } of sent.data) expect(ok(await mailroom.emails.get(id)).object).toBe("email");

    const refused = await mailroom.batch.send([
      items[0]!,
      { from, subject: "No recipient", html: "<p>x</p>" } as never,
    ]);
    expect(refused.data).toBeNull();
    expect(refused.error?.name).toBe("validation_error");
    expect(refused.error?.details.map((detail) => detail.path)).toContain("1.to");
  });

  test("batch permissive: the valid message is sent, the invalid one reported by index", async () => {
    const to = `${unique("permissive")}@example.org`;
    const result = ok(
      await mailroom.batch.send(
        [
          { from, to, subject: "Valid", html: "<p>ok</p>" },
          { from, subject: "Invalid: no to", html: "<p>x</p>" } as never,
        ],
        { batchValidation: "permissive" },
      ),
    );
    expect(result.data).toHaveLength(1);
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]!.index).toBe(1);
    expect(result.errors![0]!.message).toContain("to");
    expect(ok(await mailroom.emails.get(result.data[0]!.id)).to).toEqual([to]);
  });

  test("idempotency: the same key and body answer the same id; the same key with another body is refused", async () => {
    const key = unique("idem");
    const message = { from, to: `${unique("idem")}@example.org`, subject: "Once", html: "<p>Only once</p>" };
    const first = await mailroom.emails.send(message, { idempotencyKey: key });
    const second = await mailroom.emails.send(message, { idempotencyKey: key });
    expect(first.error).toBeNull();
    expect(second.data?.id).toBe(first.data!.id);
    expect(second.headers?.["idempotent-replayed"]).toBe("true");
    const other = await mailroom.emails.send({ ...message, subject: "Different" }, { idempotencyKey: key });
    expect(other.error?.name).toBe("invalid_idempotent_request");
    expect(other.error?.statusCode).toBe(409);

    const batchKey = unique("idem-batch");
    const batch = [{ ...message, subject: "Batch once" }];
    const batchFirst = ok(await mailroom.batch.send(batch, { idempotencyKey: batchKey }));
    const batchSecond = ok(await mailroom.batch.send(batch, { idempotencyKey: batchKey }));
    expect(batchSecond.data).toEqual(batchFirst.data);
  });

  test("a scheduled email is rescheduled (emails.update) and cancelled (emails.cancel)", async () => {
    const at = new Date(Date.now() + HOUR);
    const { id } = ok(
      await mailroom.emails.send({
        from,
        to: `${unique("later")}@example.org`,
        subject: "Later",
        html: "<p>Later</p>",
        scheduled_at: at,
      }),
    );
    const scheduled = ok(await mailroom.emails.get(id));
    expect(scheduled.status).toBe("scheduled");
    expect(Date.parse(scheduled.scheduled_at!)).toBe(Date.parse(at.toISOString()));

    const later = new Date(Date.now() + 2 * HOUR);
    const updated = await mailroom.emails.update({ id, scheduled_at: later });
    expect(updated.error).toBeNull();
    expect(updated.data?.id).toBe(id);
    expect(Date.parse(ok(await mailroom.emails.get(id)).scheduled_at!)).toBe(Date.parse(later.toISOString()));

    const canceled = await mailroom.emails.cancel(id);
    expect(canceled.error).toBeNull();
    expect(canceled.data?.id).toBe(id);
    expect(ok(await mailroom.emails.get(id)).status).toBe("canceled");
    // Nothing left to reschedule.
    expect((await mailroom.emails.update({ id, scheduled_at: later })).error).toBeInstanceOf(lib.MailroomError);
  });

  test("a send from a published template carries the variable in its html", async () => {
    const alias = unique("welcome");
    const template = mailroom.templates.create({
      name: `Welcome ${alias}`,
      alias,
      subject: "Welcome, {{name}}",
      html: "<h1>Hello {{name}}</h1><p>Your code is {{code}}.</p>",
      variables: [
        { key: "name", type: "string" },
        { key: "code", type: "string", fallback_value: "none" },
      ],
    });
    ok(await template.publish());
    const name = unique("Ada");
    const { id } = ok(
      await mailroom.emails.send({
        from,
        to: `${unique("templated")}@example.org`,
        template: { id: alias, variables: { name } },
      }),
    );
    const email = ok(await mailroom.emails.get(id));
    expect(email.html).toContain(`Hello ${name}`);
    expect(email.html).toContain("Your code is none.");
    expect(email.subject).toBe(`Welcome, ${name}`);
    expect(email.template_id).toBe(ok(await template).id);
  });

  test("react: a React Email component is rendered to html (and text) and delivered", async () => {
    const heading = unique("Welcome aboard");
    const component = createElement(
      "div",
      null,
      createElement("h1", null, heading),
      createElement("a", { href: "https://example.com/start" }, "Get started"),
    );
    const { id } = ok(
      await mailroom.emails.send({ from, to: `${unique("react")}@example.org`, subject: "React", react: component }),
    );
    const email = await untilStatus(id, "sent");
    expect(email.html).toContain(heading);
    expect(email.html).toContain('href="https://example.com/start"');
    // The plain-text rendering upper-cases headings and spells links out.
    expect(email.text?.toLowerCase()).toContain(heading.toLowerCase());
    expect(email.text).toContain("https://example.com/start");
  }, 30_000);
});

test("react without @react-email/render installed: missing_dependency, and nothing is sent", () => {
  // The built ES module copied where no node_modules can be found, run by a Bun that may not install packages.
  const dir = join(tmpdir(), `mailroom-node-no-react-${process.pid}`);
  cpSync(join(PACKAGE_DIR, "dist", "esm"), join(dir, "dist"), { recursive: true });
  writeFileSync(join(dir, "package.json"), '{"type":"module"}');
  writeFileSync(
    join(dir, "probe.mjs"),
    `import { Mailroom } from "./dist/index.js";
     let requests = 0;
     const client = new Mailroom("mr_test_key", { baseUrl: "http://127.0.0.1:9", fetch: async () => { requests++; return new Response("{}"); } });
     const { data, error } = await client.emails.send({ from: "a@example.com", to: "b@example.org", subject: "x", react: { type: "h1", props: {} } });
     console.log(JSON.stringify({ data, name: error?.name, message: error?.message, requests }));`,
  );
  try {
    const result = Bun.spawnSync([process.execPath, "--no-install", join(dir, "probe.mjs")], {
      cwd: dir,
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(result.stderr.toString()).toBe("");
    expect(JSON.parse(result.stdout.toString())).toEqual({
      data: null,
      name: "missing_dependency",
      message: "install @react-email/render and react to send React Email components",
      requests: 0,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
