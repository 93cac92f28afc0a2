/**
 * The AI writer and subject optimiser over HTTP, against a real chat-completions server on loopback written here:
 * it answers canned completions chosen by a word of the brief — a good HTML draft, a good MJML draft, a draft with
 * a script and a tracking pixel (repaired on the second turn, or not), a slow answer, a malformed one, a 429, a
 * 500. Also: without a model, scoring still works and writing says what to configure; every refusal is a 503
 * `service_unavailable` that never shows the API key.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startFloodServer } from "./helpers/flood-server.ts";

const MODEL_KEY = "sk-test-do-not-show-7f3a";

interface ChatRequest {
  authorization: string | null;
  body: { model: string; messages: Array<{ role: string; content: string }> };
}

const GOOD_HTML = {
  subject: "Your order {{order_number}} has shipped",
  html: '<!doctype html><html><head><meta charset="utf-8"></head><body><div style="max-width:600px"><p>Hi {{first_name}},</p><p>Order {{order_number}} is on its way.</p><p><a href="{{tracking_url}}">Track your parcel</a></p></div></body></html>',
  text: "Hi {{first_name}},\n\nOrder {{order_number}} is on its way.\nTrack your parcel: {{tracking_url}}",
};
const GOOD_MJML = {
  subject: "Welcome aboard, {{first_name}}",
  html: '<mjml><mj-body><mj-section><mj-column><mj-text>Hi {{first_name}}, welcome to Acme.</mj-text><mj-button href="{{start_url}}">Get started</mj-button></mj-column></mj-section></mj-body></mjml>',
};
const UNSAFE = {
  subject: "Your order has shipped",
  html: '<p onclick="steal()">Hi {{first_name}}</p><script>alert(1)</script><img src="https://track.example/pixel.gif" width="1" height="1">',
};

const completion = (content: string) =>
  Response.json({
    id: "c1",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  });

let chat: ReturnType<typeof Bun.serve>;
const requests: ChatRequest[] = [];

/** The canned answer for a request: chosen by a word in the conversation's first user message. */
async function answer(request: ChatRequest): Promise<Response> {
  const brief = request.body.messages.find((message) => message.role === "user")!.content;
  const repairing = request.body.messages.some((message) => message.role === "assistant");
  if (brief.includes("slowly")) {
    await Bun.sleep(3000);
    return completion(JSON.stringify(GOOD_HTML));
  }
  // The answer's head and a first byte, then nothing: the timeout must cover the body, not only the head.
  if (brief.includes("stalls"))
    return new Response(
      new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"choices": [')) }),
      { headers: { "content-type": "application/json" } },
    );
  if (brief.includes("malformed"))
    return new Response("<html>gateway</html>", { headers: { "content-type": "text/html" } });
  if (brief.includes("busy"))
    return new Response(JSON.stringify({ error: { message: `rate limited for ${MODEL_KEY}` } }), {
      status: 429,
      headers: { "retry-after": "7" },
    });
  if (brief.includes("broken")) return new Response("internal", { status: 500 });
  if (brief.includes("Subject:"))
    return completion(
      'Sure! ```json\n{"subjects": ["Your March invoice is ready, {{first_name}}", "FREE!!! OPEN NOW", "Invoice #2031 from Acme"]}\n```',
    );
  if (brief.includes("welcome")) return completion(JSON.stringify(GOOD_MJML));
  if (brief.includes("stubborn")) return completion(JSON.stringify(UNSAFE));
  if (brief.includes("careless")) return completion(JSON.stringify(repairing ? GOOD_HTML : UNSAFE));
  if (brief.includes("forgetful"))
    return completion(
      JSON.stringify({
        ...GOOD_HTML,
        subject: "Shipped",
        html: "<p>Your order is on its way.</p>",
        text: "Your order is on its way.",
      }),
    );
  return completion(`Here is the draft:\n${JSON.stringify(GOOD_HTML)}`);
}

let t: TestApp;
let bare: TestApp;

beforeAll(async () => {
  chat = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (new URL(req.url).pathname !== "/v1/chat/completions" || req.method !== "POST")
        return new Response("not found", { status: 404 });
      const request = {
        authorization: req.headers.get("authorization"),
        body: (await req.json()) as ChatRequest["body"],
      };
      requests.push(request);
      return answer(request);
    },
  });
  t = await createTestApp({
    ai: { base_url: `http://127.0.0.1:${chat.port}/v1/`, model: "acme-writer-8b", api_key: MODEL_KEY, timeout: "2s" },
  });
  bare = await createTestApp();
});

afterAll(async () => {
  await t.close();
  await bare.close();
  chat.stop(true);
});

const write = (body: unknown, app = t) => app.json("POST", "/v1/ai/write", { body });
const expectUnavailable = (res: { status: number; body: { name: string; message: string } }, says: string) => {
  expect(res.status).toBe(503);
  expect(res.body.name).toBe("service_unavailable");
  expect(res.body.message).toContain(says);
  expect(JSON.stringify(res.body)).not.toContain(MODEL_KEY);
};

describe("without a model", () => {
  test("subjects are scored offline; suggestions say what to configure", async () => {
    const res = await bare.json("POST", "/v1/ai/subject", { body: { subject: "FREE!!! ACT NOW" } });
    expect(res.status).toBe(200);
    expect(res.body.score).toBeLessThan(60);
    expect(res.body.findings.map((finding: { rule: string }) => finding.rule)).toContain("spam.trigger_words");
    expect(res.body.findings[0]).toEqual({
      rule: expect.any(String),
      severity: expect.any(String),
      message: expect.any(String),
      fix: expect.any(String),
    });
    expect(res.body.suggestions).toEqual([]);
    expect(res.body.suggestions_unavailable).toContain("[ai] base_url");
  });

  test("writing answers 503 naming the settings", async () => {
    expectUnavailable(await write({ brief: "An order confirmation" }, bare), "set [ai] base_url and model");
  });

  test("GET /v1/ai says so before anything is submitted, with the same words as the 503", async () => {
    const res = await bare.json("GET", "/v1/ai");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: "ai",
      model_configured: false,
      model: null,
      message: expect.stringContaining("set [ai] base_url and model"),
    });
    expect(res.body.message).toBe((await write({ brief: "An order confirmation" }, bare)).body.message);
  });
});

describe("with a model on loopback", () => {
  test("GET /v1/ai names the model, never its server or key, and asks nothing of it", async () => {
    const before = requests.length;
    const res = await t.json("GET", "/v1/ai");
    expect(res.body).toEqual({ object: "ai", model_configured: true, model: "acme-writer-8b", message: null });
    expect(JSON.stringify(res.body)).not.toContain(String(chat.port));
    expect(JSON.stringify(res.body)).not.toContain(MODEL_KEY);
    expect(requests.length).toBe(before);
  });

  test("suggestions are the model's subjects, scored by the same rules, best first", async () => {
    const res = await t.json("POST", "/v1/ai/subject", {
      body: { subject: "invoice", html: "<p>Your invoice for March is attached.</p>" },
    });
    expect(res.status).toBe(200);
    const last = requests.at(-1)!;
    expect(last.authorization).toBe(`Bearer ${MODEL_KEY}`);
    expect(last.body.model).toBe("acme-writer-8b");
    expect(res.body.suggestions.map((s: { subject: string }) => s.subject)).toHaveLength(3);
    const scores = res.body.suggestions.map((s: { score: number }) => s.score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    expect(res.body.suggestions.at(-1).subject).toBe("FREE!!! OPEN NOW");
    expect(res.body.suggestions_unavailable).toBeUndefined();
  });

  test("a model failing while suggesting leaves the score and says why", async () => {
    const res = await t.json("POST", "/v1/ai/subject", { body: { subject: "We are busy" } });
    expect(res.status).toBe(200);
    expect(res.body.suggestions).toEqual([]);
    expect(res.body.suggestions_unavailable).toContain("429");
  });

  test("an HTML draft keeps the brief's placeholders and lists the variables", async () => {
    const res = await write({
      brief: "Tell {{first_name}} that order {{order_number}} shipped",
      tone: "warm",
      audience: "shoppers",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: "draft",
      engine: "handlebars",
      subject: GOOD_HTML.subject,
      html: GOOD_HTML.html,
      text: GOOD_HTML.text,
      template_id: null,
    });
    expect(res.body.variables).toEqual(["order_number", "first_name", "tracking_url"]);
    expect(res.body.prompt_version).toBeString();
    const prompt = requests.at(-1)!.body.messages;
    expect(prompt[0]!.role).toBe("system");
    expect(prompt[1]!.content).toContain("Tone: warm");
    expect(prompt[1]!.content).toContain("Placeholders to keep: {{first_name}}, {{order_number}}");
  });

  test("an MJML draft saved as a template renders to responsive HTML", async () => {
    const res = await write({
      brief: "A welcome email",
      format: "mjml",
      save_as_template: { name: "Welcome (AI)", alias: "ai-welcome" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ engine: "mjml", variables: ["first_name", "start_url"], html: GOOD_MJML.html });
    expect(res.body.text).toContain("welcome to Acme");
    const template = (await t.json("GET", "/v1/templates/ai-welcome")).body;
    expect(template).toMatchObject({
      id: res.body.template_id,
      engine: "mjml",
      status: "draft",
      subject: GOOD_MJML.subject,
    });
    expect(template.variables.map((v: { key: string; type: string }) => [v.key, v.type])).toEqual([
      ["first_name", "string"],
      ["start_url", "string"],
    ]);
    const rendered = await t.json("POST", "/v1/templates/ai-welcome/render", {
      body: { variables: { first_name: "Ann", start_url: "https://acme.example/start" } },
    });
    expect(rendered.body.html).toContain("Hi Ann, welcome to Acme.");
  });

  test("a draft with a script and a tracking pixel is sent back once with the problems, and the repair is used", async () => {
    const before = requests.length;
    const res = await write({ brief: "A careless shipping note" });
    expect(res.status).toBe(200);
    expect(res.body.html).toBe(GOOD_HTML.html);
    expect(requests.length - before).toBe(2);
    const repair = requests.at(-1)!.body.messages.at(-1)!.content;
    expect(repair).toContain("<script> is not allowed");
    expect(repair).toContain("onclick");
    expect(repair).toContain("remote resource");
  });

  test.each([
    [
      "a draft that stays unsafe after the repair turn",
      { brief: "A stubborn note" },
      "<script> is not allowed in an email",
    ],
    [
      "a draft without the brief's placeholder",
      { brief: "A forgetful note for {{first_name}}" },
      "{{first_name}} of the brief is missing",
    ],
    ["a slow model", { brief: "Write slowly" }, "did not answer within 2s"],
    ["a model that stalls in the middle of its answer", { brief: "It stalls" }, "did not answer within 2s"],
    ["an answer that is not a completion", { brief: "A malformed answer" }, "not a chat completion"],
    ["a model server error", { brief: "A broken server" }, "answered 500"],
  ])("%s answers 503 saying why", async (_name, body, says) => {
    expectUnavailable(await write(body), says);
  });

  test("a rate-limited model answers 503 with its Retry-After", async () => {
    const res = await write({ brief: "The model is busy" });
    expectUnavailable(res, "429");
    expect(res.headers.get("retry-after")).toBe("7");
  });

  test("bad requests are refused before the model is asked; ai:use is needed", async () => {
    const before = requests.length;
    expect((await write({})).body.details).toEqual([{ path: "brief", message: "is required" }]);
    expect((await write({ brief: "x", format: "pdf" })).body.details).toEqual([
      { path: "format", message: 'must be "html" or "mjml"' },
    ]);
    expect(
      (await write({ brief: "x", save_as_template: { name: "n", alias: "no spaces" } })).body.details[0].path,
    ).toBe("save_as_template.alias");
    expect((await write({ brief: "x", colour: "red" })).status).toBe(400);
    expect((await t.json("POST", "/v1/ai/subject", { body: {} })).body.details).toEqual([
      { path: "subject", message: "is required" },
    ]);
    const sender = await t.app.services.keys.create(t.operator, { name: "sender", scopes: ["emails:send"] });
    expect((await t.json("POST", "/v1/ai/write", { key: sender.key, body: { brief: "x" } })).status).toBe(403);
    expect((await t.json("POST", "/v1/ai/subject", { key: sender.key, body: { subject: "x" } })).status).toBe(403);
    expect((await t.json("GET", "/v1/ai", { key: sender.key })).status).toBe(403);
    expect(requests.length).toBe(before);
  });
});

test("finding 6: a model server that streams an endless answer is cut off at 1 MiB, not read whole", async () => {
  // 64 MiB stands for "without end": read whole, every byte would cross before the size check.
  const flood = await startFloodServer({ totalBytes: 64 * 1024 * 1024, contentType: "application/json" });
  const flooded = await createTestApp({
    ai: { base_url: `http://127.0.0.1:${flood.port}/v1`, model: "acme-writer-8b", api_key: MODEL_KEY, timeout: "30s" },
  });
  try {
    expectUnavailable(await write({ brief: "An order confirmation" }, flooded), "too large");
    // Measured: 4 to 7 MiB sent before the hang-up (the cap, the client's read-ahead, loopback buffers); 64 MiB before.
    expect(await flood.responseOver()).toBeLessThan(16 * 1024 * 1024);
  } finally {
    await flooded.close();
    await flood.close();
  }
});
