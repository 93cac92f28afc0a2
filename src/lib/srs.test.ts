import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { createSrsCodec, MAX_AGE_DAYS } from "./srs.ts";

const DAY = 86_400_000;
const now = Date.UTC(2026, 11, 7, 12);
const codec = createSrsCodec(randomBytes(32));
const issued = codec.forward("Author.Name@Sender.test", "send.example.com", now);

describe("SRS0 addresses", () => {
  test("a forwarded sender is written on the forwarding domain and reverses to the original", () => {
    expect(issued).toMatch(/^SRS0=[a-z2-7]{8}=[a-z2-7]{2}=Sender\.test=Author\.Name@send\.example\.com$/);
    expect(codec.reverse(issued, now)).toBe("Author.Name@Sender.test");
  });

  const cases: Array<[string, string, number, string | null]> = [
    ["a server that folds the case of the whole address", issued.toLowerCase(), now, "author.name@sender.test"],
    ["the last day of its age", issued, now + MAX_AGE_DAYS * DAY, "Author.Name@Sender.test"],
    ["a day too old", issued, now + (MAX_AGE_DAYS + 1) * DAY, null],
    [
      "a hash changed by hand",
      issued.replace(/^SRS0=[a-z2-7]/, (m) => (m.endsWith("a") ? "SRS0=b" : "SRS0=a")),
      now,
      null,
    ],
    ["another original sender under the same hash", issued.replace("Author.Name@", "victim@"), now, null],
    [
      "the same address moved onto another organisation's domain",
      issued.replace("@send.example.com", "@send.other.test"),
      now,
      null,
    ],
    ["an ordinary address", "author@sender.test", now, null],
    ["an SRS1 address (a second forwarder's)", issued.replace(/^SRS0/, "SRS1"), now, null],
  ];
  for (const [name, address, at, expected] of cases)
    test(`${name}: ${expected === null ? "refused" : "reversed"}`, () => {
      expect(codec.reverse(address, at)).toBe(expected);
    });

  test("another key's addresses do not verify", () => {
    expect(createSrsCodec(randomBytes(32)).reverse(issued, now)).toBeNull();
  });

  test("looksLike tells an SRS0 address, verified or not, from others", () => {
    expect(codec.looksLike("srs0=whatever@x.test")).toBe(true);
    expect(codec.looksLike("someone@x.test")).toBe(false);
  });
});
