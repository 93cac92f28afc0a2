/**
 * Who may scrape /metrics, over real sockets: by default the API's port serves it to anyone who reaches that port
 * (loopback unless configured otherwise); `[metrics] listen` moves it to a listener of its own, and the API's port
 * no longer serves it; `[metrics] token` makes every scrape carry `Authorization: Bearer <token>`, else 401.
 */
import { expect, test } from "bun:test";
import { createTestApp } from "./helpers/app.ts";

const TOKEN = "scrape-7c1d0a9e4b";

/** Starts an app with `metrics` settings; the base URLs of its API and (when it has one) its metrics listener. */
async function started(metrics: Record<string, unknown>) {
  const t = await createTestApp({ metrics });
  const listeners = await t.app.start();
  const at = (name: string) => {
    const listener = listeners.find((l) => l.name === name);
    return listener && `http://127.0.0.1:${listener.port}`;
  };
  return { t, api: at("http")!, metrics: at("metrics") };
}

const scrape = (base: string, authorization?: string) =>
  fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });

test("by default /metrics is on the API's port, without a token", async () => {
  const { t, api, metrics } = await started({});
  try {
    expect(metrics).toBeUndefined();
    const res = await scrape(api);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("mailroom_http_requests_total");
  } finally {
    await t.close();
  }
});

test("[metrics] listen serves /metrics on its own listener only, and the API's port no longer does", async () => {
  const { t, api, metrics } = await started({ listen: "127.0.0.1:0" });
  try {
    expect(metrics).toBeDefined();
    const res = await scrape(metrics!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
    expect(await res.text()).toContain("mailroom_queue_due");
    const onApi = await scrape(api);
    expect(onApi.status).toBe(404);
    expect(((await onApi.json()) as { name: string }).name).toBe("not_found");
    expect((await fetch(`${metrics}/v1/emails`)).status).toBe(404);
    const posted = await fetch(`${metrics}/metrics`, { method: "POST" });
    expect(posted.status).toBe(405);
    expect(posted.headers.get("allow")).toBe("GET");
  } finally {
    await t.close();
  }
});

test.each([
  ["on the API's port", {}],
  ["on a listener of its own", { listen: "127.0.0.1:0" }],
])("[metrics] token: a scrape without the bearer token is refused 401 %s", async (_where, listen) => {
  const { t, api, metrics } = await started({ ...listen, token: TOKEN });
  const base = metrics ?? api;
  try {
    for (const authorization of [
      undefined,
      "Bearer wrong",
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      TOKEN,
      `Basic ${TOKEN}`,
    ]) {
      const res = await scrape(base, authorization);
      expect(res.status).toBe(401);
      const body = await res.json();
      expect(body).toMatchObject({ name: "unauthorized", statusCode: 401 });
      expect(JSON.stringify(body)).not.toContain(TOKEN);
    }
    const res = await scrape(base, `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("mailroom_");
  } finally {
    await t.close();
  }
});

test("[metrics] listen that is not host:port is refused at start", async () => {
  await expect(createTestApp({ metrics: { listen: "9464" } })).rejects.toThrow("metrics.listen");
});
