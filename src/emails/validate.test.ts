import { describe, expect, test } from "bun:test";
import { AppError } from "../errors.ts";
import { checkSendRequest, parseSendRequest } from "./validate.ts";

const NOW = Date.parse("2026-11-22T10:00:00.000Z");
const ctx = { now: NOW, maxRecipients: 50 };
const valid = { from: "Acme <hi@example.com>", to: "a@x.org", subject: "Hi", html: "<p>Hi</p>" };

async function problems(body: unknown): Promise<Array<{ path: string; message: string }>> {
  try {
    await checkSendRequest(body, ctx);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).name).toBe("validation_error");
    return (error as AppError).details ?? [];
  }
  throw new Error("expected a validation error");
}

const many = (n: number) => Array.from({ length: n }, (_, i) => `r${i}@x.org`);

describe("send body validation", () => {
  test("a minimal body passes and is normalised", () => {
    const fields = parseSendRequest({ ...valid, to: ["B@Bücher.example", "a@x.org"], "reply-to": "r@x.org" }, ctx);
    expect(fields.from).toEqual({ name: "Acme", address: "hi@example.com" });
    expect(fields.to.map((m) => m.address)).toEqual(["B@xn--bcher-kva.example", "a@x.org"]);
    expect(fields.replyTo[0]!.address).toBe("r@x.org");
  });

  test.each([
    ["from is required", { ...valid, from: undefined }, "from"],
    ["to is required", { ...valid, to: undefined }, "to"],
    ["an empty to list", { ...valid, to: [] }, "to"],
    ["a malformed recipient names its index", { ...valid, to: ["a@x.org", "not an address"] }, "to.1"],
    ["a display name with a line break", { ...valid, from: "Evil\r\nBcc: x@y.z <hi@example.com>" }, "from"],
    ["two addresses in from", { ...valid, from: "a@example.com, b@example.com" }, "from"],
    ["a non-ASCII local part", { ...valid, to: "jöhn@x.org" }, "to"],
    ["a domain without a dot", { ...valid, to: "a@localhost" }, "to"],
    ["subject with CR/LF", { ...valid, subject: "Hi\r\nBcc: x@y.z" }, "subject"],
    ["subject missing", { ...valid, subject: undefined }, "subject"],
    ["html missing", { ...valid, html: undefined }, "html"],
    ["html not a string", { ...valid, html: 42 }, "html"],
    ["an unknown field is named", { ...valid, colour: "blue" }, "colour"],
    ["reply_to and reply-to together", { ...valid, reply_to: "a@x.org", "reply-to": "b@x.org" }, "reply-to"],
    ["a structural header", { ...valid, headers: { From: "x@y.z" } }, "headers.From"],
    ["a Content- header", { ...valid, headers: { "Content-Type": "text/plain" } }, "headers.Content-Type"],
    [
      "a header value with a line break",
      { ...valid, headers: { "X-Campaign": "a\r\nBcc: x@y.z" } },
      "headers.X-Campaign",
    ],
    ["a header name with a colon", { ...valid, headers: { "X-A:b": "v" } }, "headers.X-A:b"],
    ["headers not an object", { ...valid, headers: ["X-A: b"] }, "headers"],
    [
      "attachment content that is not base64",
      { ...valid, attachments: [{ filename: "a.txt", content: "***" }] },
      "attachments.0.content",
    ],
    ["attachment without filename", { ...valid, attachments: [{ content: "aGk=" }] }, "attachments.0.filename"],
    [
      "attachment filename with a path",
      { ...valid, attachments: [{ filename: "../etc/passwd", content: "aGk=" }] },
      "attachments.0.filename",
    ],
    [
      "attachment with a bad content type",
      { ...valid, attachments: [{ filename: "a", content: "aGk=", content_type: "pdf" }] },
      "attachments.0.content_type",
    ],
    [
      "an unknown attachment field",
      { ...valid, attachments: [{ filename: "a", content: "aGk=", url: "https://files.example/a" }] },
      "attachments.0.url",
    ],
    [
      "an attachment with both content and path",
      { ...valid, attachments: [{ filename: "a", content: "aGk=", path: "https://files.example/a" }] },
      "attachments.0",
    ],
    [
      "an attachment path that is not an http(s) URL",
      { ...valid, attachments: [{ filename: "a", path: "/etc/passwd" }] },
      "attachments.0.path",
    ],
    [
      "an attachment path to a file: URL",
      { ...valid, attachments: [{ filename: "a", path: "file:///etc/passwd" }] },
      "attachments.0.path",
    ],
    ["a tag name with spaces", { ...valid, tags: [{ name: "a b", value: "v" }] }, "tags.0.name"],
    ["a tag value too long", { ...valid, tags: [{ name: "a", value: "v".repeat(257) }] }, "tags.0.value"],
    ["scheduled_at in the past", { ...valid, scheduled_at: "2026-11-22T09:59:59Z" }, "scheduled_at"],
    ["scheduled_at more than 30 days ahead", { ...valid, scheduled_at: "2026-12-22T10:00:01Z" }, "scheduled_at"],
    ["scheduled_at that is not a date", { ...valid, scheduled_at: "tomorrow" }, "scheduled_at"],
    [
      "51 distinct recipients across to, cc and bcc",
      { ...valid, to: many(30), cc: many(50).slice(30), bcc: ["extra@x.org"] },
      "to",
    ],
  ])("%s", async (_name, body, path) => {
    expect((await problems(body)).map((p) => p.path)).toContain(path);
  });

  test("50 recipients after de-duplication pass", () => {
    const fields = parseSendRequest({ ...valid, to: many(50), cc: ["R0@x.org"], bcc: many(10) }, ctx);
    expect(fields.to).toHaveLength(50);
  });

  test("every problem of the shape is reported at once; unknown fields together with the rules' problems", async () => {
    const paths = async (body: unknown) => (await problems(body)).map((p) => p.path).sort();
    expect(await paths({ to: 1, html: 1, extra: true })).toEqual(["extra", "html", "to"]);
    expect(await paths({ to: "bad", html: "", extra: true })).toEqual(["extra", "from", "html", "subject", "to"]);
  });

  test("a body that is not an object", async () => {
    expect((await problems([valid]))[0]!.message).toContain("JSON object");
  });

  test("attachments, inline parts, tags and a schedule are carried through", () => {
    const fields = parseSendRequest(
      {
        ...valid,
        attachments: [
          {
            filename: "logo.png",
            content: Buffer.from("png").toString("base64"),
            content_type: "image/png",
            content_id: "logo",
          },
        ],
        tags: [{ name: "category", value: "welcome" }],
        scheduled_at: "2026-11-23T10:00:00Z",
      },
      ctx,
    );
    expect(fields.attachments[0]).toMatchObject({ filename: "logo.png", contentType: "image/png", contentId: "logo" });
    expect(fields.attachments[0]!.content.toString()).toBe("png");
    expect(fields.tags).toEqual([{ name: "category", value: "welcome" }]);
    expect(fields.scheduledAt).toBe(Date.parse("2026-11-23T10:00:00Z"));
  });
});
