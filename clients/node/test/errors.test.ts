/**
 * API failures from the real server surface as `{ data: null, error: MailroomError }` with the server's name,
 * status, message and details: 401, 403, 400 with details, 404 and 429 with retryAfter.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Mailroom } from "@mailroom/node";
import { env, live, loadLibrary, type Library } from "./support.ts";

let lib: Library;
let baseUrl: string;
let mailroom: Mailroom;

beforeAll(async () => {
  lib = await loadLibrary();
  if (!live) return;
  baseUrl = env("MAILROOM_BASE_URL");
  mailroom = new lib.Mailroom(env("MAILROOM_API_KEY"), { baseUrl });
}, 120_000);

describe.skipIf(!live)("errors from the server", () => {
  test("401 unauthorized: an unknown key", async () => {
    const { data, error } = await new lib.Mailroom("mr_live_00000000000000000000000000000000", {
      baseUrl,
    }).emails.list();
    expect(data).toBeNull();
    expect(error).toBeInstanceOf(lib.MailroomError);
    expect(error).toBeInstanceOf(Error);
    expect(error?.name).toBe("unauthorized");
    expect(error?.statusCode).toBe(401);
    expect(error?.message.length).toBeGreaterThan(0);
  });

  test("403 insufficient_scope: a sending-only key listing domains", async () => {
    const { error } = await new lib.Mailroom(env("MAILROOM_SENDING_KEY"), { baseUrl }).domains.list();
    expect(error?.name).toBe("insufficient_scope");
    expect(error?.statusCode).toBe(403);
  });

  test("400 validation_error with details: a send without `to`", async () => {
    const { data, error } = await mailroom.emails.send({
      from: env("MAILROOM_FROM"),
      subject: "No recipient",
      html: "<p>x</p>",
    } as never);
    expect(data).toBeNull();
    expect(error?.name).toBe("validation_error");
    expect(error?.statusCode).toBe(400);
    expect(error?.error).toBe("Bad Request");
    expect(error?.details).toContainEqual({ path: "to", message: expect.any(String) });
  });

  test("404 not_found: an unknown id", async () => {
    const { error } = await mailroom.emails.get(crypto.randomUUID());
    expect(error?.name).toBe("not_found");
    expect(error?.statusCode).toBe(404);
  });

  test("429 rate_limit_exceeded with retryAfter: the third request in a minute of a key limited to two", async () => {
    const limited = new lib.Mailroom(env("MAILROOM_LIMITED_KEY"), { baseUrl });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await limited.emails.list({ limit: 1 }));
    // The other languages' suites use this key too: within the same minute their requests count against it, so
    // the first two may already be refused. The third never passes.
    for (const answer of answers.slice(0, 2)) if (answer.error) expect(answer.error.name).toBe("rate_limit_exceeded");
    const { error, headers } = answers[2]!;
    expect(error?.name).toBe("rate_limit_exceeded");
    expect(error?.statusCode).toBe(429);
    expect(error?.retryAfter).toBeGreaterThan(0);
    expect(Number(headers?.["retry-after"])).toBe(error!.retryAfter!);
  });
});
