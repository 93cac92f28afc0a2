/**
 * Finding 7: a template cannot freeze the event loop. Variables are strings and finite numbers only (so a request
 * cannot hand a loop a list to multiply), rendering runs on the CPU pool within a time budget and under the message
 * size limit, a job past its budget ends its thread alone, and the event loop's longest stall is measured while
 * each hostile render is refused.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Resend } from "resend";
import { CpuTaskOverrun, createCpuPool } from "../src/cpu/pool.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { setUpTemplateApp, WELCOME } from "./helpers/templates.ts";

let t: TestApp;
let resend: Resend;

setUpTemplateApp((app) => ({ t, resend } = app));

/**
 * The event loop's longest stall while `work` runs: how late a 10 ms timer fired at worst. A render on the event
 * loop shows as a stall of its whole length; one in the CPU pool does not show at all.
 */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let worst = 0;
  const tick = () => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 10);
    last = now;
  };
  const timer = setInterval(tick, 10);
  try {
    const result = await work();
    tick();
    return { result, stallMs: worst };
  } finally {
    clearInterval(timer);
  }
}

/** Far under a second, with room for a loaded two-core CI machine (a render on the loop stalled it 6.6 s). */
const MAX_STALL_MS = 500;

describe("finding 7: template rendering cannot freeze the event loop", () => {
  // The finding's template: each item of `items` times every item times every item, all on the event loop.
  const NESTED_EACH =
    "{{#each items}}{{#each @root.items}}{{#each @root.items}}<b>{{this}}</b>{{/each}}{{/each}}{{/each}}";

  test("finding 7: a nested {{#each}} template sent with a 1.9 KB request is refused without stalling the event loop", async () => {
    const { data } = await resend.templates.create({
      name: "Nested each",
      subject: "s",
      from: "hello@example.com",
      html: NESTED_EACH,
    });
    await resend.templates.publish(data!.id);
    const items = Array.from({ length: 200 }, (_, i) => `item-${i}`);
    const send = { to: "someone@dest.test", template: { id: data!.id, variables: { items } } };
    expect(JSON.stringify(send).length).toBeGreaterThan(1900);

    const sent = await longestStall(() => t.json("POST", "/v1/emails", { body: send }));
    expect(sent.result.status).toBe(400);
    expect(sent.result.body).toMatchObject({
      name: "validation_error",
      details: [{ path: "template.variables.items", message: "must be a string or a number, got array" }],
    });
    expect(sent.stallMs).toBeLessThan(MAX_STALL_MS);

    const preview = await longestStall(() =>
      t.json("POST", `/v1/templates/${data!.id}/render`, { body: { variables: { items } } }),
    );
    expect(preview.result.status).toBe(400);
    expect(preview.result.body.details).toEqual([
      { path: "variables.items", message: "must be a string or a number, got array" },
    ]);
    expect(preview.stallMs).toBeLessThan(MAX_STALL_MS);
  });

  test("finding 7: variables are strings and finite numbers: objects, booleans and numbers past JSON's range are refused by name; null falls back", async () => {
    const { data } = await resend.templates.create({ ...WELCOME, name: "Typed", alias: "typed" });
    await resend.templates.publish(data!.id);
    const id = data!.id;
    const refused = await t.json("POST", `/v1/templates/${id}/render`, {
      body: `{"variables": {"count": 1, "user": {"name": "x"}, "vip": true, "huge": 1e999}}`,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      { path: "variables.user", message: "must be a string or a number, got object" },
      { path: "variables.vip", message: "must be a string or a number, got boolean" },
      { path: "variables.huge", message: "must be a string or a number, got a number that is not finite" },
    ]);
    const sent = await t.json("POST", "/v1/emails", {
      body: { to: "someone@dest.test", template: { id, variables: { count: 1, tags: ["a"] } } },
    });
    expect(sent.body.details).toEqual([
      { path: "template.variables.tags", message: "must be a string or a number, got array" },
    ]);
    // Null is a value not given: the declared fallback applies, and a variable without one is required.
    const fallback = await t.json("POST", `/v1/templates/${id}/render`, {
      body: { variables: { count: 1, name: null, footer: null } },
    });
    expect(fallback.body.html).toBe("<p>Hello friend, you have 1 credits.</p>");
    const required = await t.json("POST", `/v1/templates/${id}/render`, { body: { variables: { count: null } } });
    expect(required.body.details).toEqual([
      { path: "variables.count", message: "is required (the template declares it without a fallback)" },
    ]);
  });
});

describe("finding 7: a hostile template is stopped at its time budget and at the message size limit", () => {
  let limited: TestApp;
  const BUDGET_MS = 1000;
  const MAX_MESSAGE_BYTES = 1024 * 1024;

  beforeAll(async () => {
    limited = await createTestApp({
      limits: { max_message_bytes: MAX_MESSAGE_BYTES, template_render_timeout: `${BUDGET_MS}ms` },
    });
    await limited.app.services.domains.add(limited.operator, "example.com", { verifiedOverride: true });
  });
  afterAll(() => limited.close());

  const published = async (html: string) => {
    const created = await limited.json("POST", "/v1/templates", {
      body: { name: "Hostile", subject: "s", from: "hello@example.com", html },
    });
    expect(created.status).toBe(200);
    await limited.json("POST", `/v1/templates/${created.body.id}/publish`);
    return created.body.id as string;
  };
  // Sixty one-letter variables: legal values, and a template that loops over them five deep loops over 60⁵ times.
  const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`v${i}`, "x"]));

  test("finding 7: a template that loops over its own variables works off the event loop and is stopped at its time budget", async () => {
    const id = await published(
      "{{#each @root}}{{#each @root}}{{#each @root}}{{#each @root}}{{#each @root}}{{/each}}{{/each}}{{/each}}{{/each}}{{/each}}",
    );
    for (const [path, request] of [
      [
        "template.variables",
        () =>
          limited.json("POST", "/v1/emails", { body: { to: "someone@dest.test", template: { id, variables: many } } }),
      ],
      ["variables", () => limited.json("POST", `/v1/templates/${id}/render`, { body: { variables: many } })],
    ] as const) {
      const started = performance.now();
      const { result, stallMs } = await longestStall(request);
      expect(result.status).toBe(400);
      expect(result.body.details).toEqual([
        {
          path,
          message: `rendering the template with these variables took longer than ${BUDGET_MS} ms and was stopped`,
        },
      ]);
      expect(performance.now() - started).toBeGreaterThanOrEqual(BUDGET_MS);
      expect(stallMs).toBeLessThan(MAX_STALL_MS);
    }
    // The stopped thread was replaced: the next render works.
    const next = await published("<p>{{v0}}</p>");
    expect((await limited.json("POST", `/v1/templates/${next}/render`, { body: { variables: many } })).body.html).toBe(
      "<p>x</p>",
    );
  }, 30_000);

  test("finding 7: a job past its time budget ends its thread alone; the jobs queued behind it run on the replacement", async () => {
    const pool = createCpuPool(new URL("../src/cpu/thread.ts", import.meta.url), 1);
    const job = (versionId: string, html: string) => ({
      kind: "render" as const,
      versionId,
      content: {
        engine: "handlebars" as const,
        subject: null,
        from: null,
        reply_to: null,
        html,
        text: null,
        variables: [],
      },
      values: many,
      maxBytes: MAX_MESSAGE_BYTES,
      withText: false,
    });
    const work = { tenant: "one", forSend: true };
    try {
      const hostile = pool.template(
        job(
          "hostile",
          "{{#each @root}}{{#each @root}}{{#each @root}}{{#each @root}}{{#each @root}}{{/each}}{{/each}}{{/each}}{{/each}}{{/each}}",
        ),
        300,
        work,
      );
      const queued = [
        pool.template(job("queued", "<p>{{v1}}</p>"), 300, work),
        pool.template(job("queued", "<p>{{v1}}</p>"), 300, work),
      ];
      await expect(hostile).rejects.toBeInstanceOf(CpuTaskOverrun);
      for (const rendered of await Promise.all(queued))
        expect(rendered).toEqual({ kind: "rendered", subject: null, html: "<p>x</p>", text: null });
    } finally {
      pool.close();
    }
  });

  test("finding 7: a render larger than the message size limit is refused with 413 as its output passes the limit", async () => {
    // Escaped: each `{{@root.big}}` copies 10 KB of `<` into 40 KB of `&lt;`, over 60³ times (over 8.6 GB) unless
    // stopped.
    const escaped = await published(
      "{{#each @root}}{{#each @root}}{{#each @root}}{{@root.big}}{{/each}}{{/each}}{{/each}}",
    );
    const variables = { ...many, big: "<".repeat(10_000) };
    const { result, stallMs } = await longestStall(() =>
      limited.json("POST", "/v1/emails", { body: { to: "someone@dest.test", template: { id: escaped, variables } } }),
    );
    expect(result.status).toBe(413);
    expect(result.body).toMatchObject({
      name: "payload_too_large",
      details: [
        {
          path: "template.variables",
          message: `the rendered template would be larger than the message size limit of ${MAX_MESSAGE_BYTES} bytes`,
        },
      ],
    });
    expect(stallMs).toBeLessThan(MAX_STALL_MS);

    // Raw output written over and over, outside any loop; and a value longer than any message may be.
    const raw = await published("{{{big}}}".repeat(200));
    const preview = await limited.json("POST", `/v1/templates/${raw}/render`, { body: { variables } });
    expect(preview.status).toBe(413);
    expect(preview.body.details).toEqual([
      {
        path: "variables",
        message: `the rendered template would be larger than the message size limit of ${MAX_MESSAGE_BYTES} bytes`,
      },
    ]);
    const long = await limited.json("POST", `/v1/templates/${raw}/render`, {
      body: { variables: { big: "x".repeat(MAX_MESSAGE_BYTES + 1) } },
    });
    expect(long.status).toBe(413);
    expect(long.body.details).toEqual([
      { path: "variables.big", message: `must be at most ${MAX_MESSAGE_BYTES} characters` },
    ]);
    // Under the limit, the same template renders.
    expect(
      (await limited.json("POST", `/v1/templates/${raw}/render`, { body: { variables: { big: "ok" } } })).body.html,
    ).toBe("ok".repeat(200));
  });
});
