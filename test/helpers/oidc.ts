/**
 * The loopback OpenID provider (oidc-provider.mjs, the npm package oidc-provider) and a browser's walk through a
 * sign-in with it: Mailroom's /v1/sso/start, the provider's login form, and back to Mailroom's callback — each hop a
 * real HTTP request, with the cookies each side set.
 */
import { join } from "node:path";

export const CLIENT_ID = "mailroom";
export const CLIENT_SECRET = "a client secret the provider and Mailroom share";

export interface TestProvider {
  issuer: string;
  /** Changes the ID tokens the token endpoint sends from now on (see oidc-provider.mjs). */
  tamper(mode: "none" | "forged" | "wrong_audience" | "expired" | "replayed_nonce"): Promise<void>;
  close(): void;
}

export async function startProvider(redirectUri: string): Promise<TestProvider> {
  const proc = Bun.spawn(
    [process.execPath, join(import.meta.dir, "oidc-provider.mjs"), CLIENT_ID, CLIENT_SECRET, redirectUri],
    { stdin: "ignore", stdout: "pipe", stderr: "ignore" },
  );
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the OpenID provider stopped before it said its address");
    text += new TextDecoder().decode(value);
  }
  const issuer = text.trim();
  return {
    issuer,
    async tamper(mode) {
      await fetch(`${issuer}/__tamper`, { method: "POST", body: JSON.stringify({ mode }) });
    },
    close: () => proc.kill(),
  };
}

/** Cookies as a browser keeps them for one site: name → value. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (/max-age=0/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** The hidden inputs and action of the first form of a page. */
function formOf(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form on the provider's page: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields[name!] = value!;
  return { action: action.replaceAll("&amp;", "&"), fields };
}

/**
 * Signs in at the provider as `login` from the authorization URL Mailroom redirected to; answers the URL the
 * provider sends the browser back to (Mailroom's callback with its code and state, or an error).
 */
export async function loginAtProvider(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Jar();
  let url = new URL(authorizationUrl);
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 12; hop++) {
    const response = await fetch(url, {
      method: body ? "POST" : "GET",
      headers: { cookie: jar.header(), ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body,
      redirect: "manual",
    });
    jar.take(response.headers);
    body = undefined;
    const location = response.headers.get("location");
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== url.origin) return next;
      url = next;
      continue;
    }
    const form = formOf(await response.text());
    body = new URLSearchParams({ ...form.fields, login, password: "any password" });
    url = new URL(form.action, url);
  }
  throw new Error("the provider's sign-in did not come back");
}
