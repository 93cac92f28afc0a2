/**
 * The one resolver (src/lib/dns.ts) against the loopback DNS server: TXT records keep their character-strings
 * together (a 2048-bit DKIM key is always split), large answers are fetched over TCP, and "no such record" is
 * told apart from "could not find out".
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createResolver, isNotFound, resolveFunction, type DnsResolver } from "../src/lib/dns.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";

let dns: DnsServer;
let resolver: DnsResolver;

beforeAll(async () => {
  dns = await startDnsServer();
  resolver = createResolver(dns.servers, { timeoutMs: 2000, tries: 1 });
});

afterAll(() => dns.close());

describe("TXT lookups", () => {
  test("keep each record's strings together, and records apart", async () => {
    dns.set("split.example", "TXT", [["v=DKIM1; k=rsa; ", "p=AAAA"], "other"]);
    expect(await resolver.resolveTxt("split.example")).toEqual([["v=DKIM1; k=rsa; ", "p=AAAA"], ["other"]]);
  });

  test("fetch an answer too large for UDP over TCP", async () => {
    const value = `v=DKIM1; k=rsa; p=${"A".repeat(1200)}`;
    dns.set("large.example", "TXT", [value]);
    const [record] = await resolver.resolveTxt("large.example");
    expect(record!.join("")).toBe(value);
    expect(record!.map((s) => s.length)).toEqual([255, 255, 255, 255, 198]);
  });

  test("answer through the (name, type) function libraries such as mailauth take", async () => {
    dns.set("fn.example", "TXT", [["a", "b"]]);
    dns.set("fn.example", "MX", [{ exchange: "mx.fn.example", priority: 5 }]);
    const resolve = resolveFunction(resolver);
    expect(await resolve("fn.example", "TXT")).toEqual([["a", "b"]]);
    expect(await resolve("fn.example", "MX")).toEqual([{ exchange: "mx.fn.example", priority: 5 }]);
  });

  const errors: Array<[string, () => void, string, boolean]> = [
    ["a name that does not exist is ENOTFOUND", () => {}, "ENOTFOUND", true],
    ["a name without TXT records is ENODATA", () => dns.set("missing.example", "A", ["192.0.2.1"]), "ENODATA", true],
    ["a failing server is ESERVFAIL, not a missing record", () => dns.fail("missing.example"), "ESERVFAIL", false],
  ];
  for (const [name, arrange, code, notFound] of errors) {
    test(name, async () => {
      arrange();
      const error = await resolver.resolveTxt("missing.example").catch((e) => e);
      expect(error.code).toBe(code);
      expect(isNotFound(error)).toBe(notFound);
    });
  }

  test("a server that is not there is ECONNREFUSED, not a missing record", async () => {
    const error = await createResolver(["127.0.0.1:1"], { timeoutMs: 2000, tries: 1 })
      .resolveTxt("x.example")
      .catch((e) => e);
    expect(error.code).toBe("ECONNREFUSED");
    expect(isNotFound(error)).toBe(false);
  });
});
