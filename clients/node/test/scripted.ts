/**
 * What the wire tests share (transport.test.ts and the *-wire.test.ts files): small HTTP servers of the test's own
 * that answer scripted responses and record every request, stopped after each test, and a JSON answer to script.
 */
import type { Server } from "bun";

export interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** The servers started by the running test; stopServers (each file's afterEach) stops them. */
export const servers: Server<undefined>[] = [];

export function stopServers(): void {
  for (const server of servers.splice(0)) server.stop(true);
}

/** A server answering the scripted responses in order (the last one repeats), recording every request. */
export function scripted(...answers: Array<() => Response | Promise<Response>>) {
  const seen: Seen[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      seen.push({
        method: request.method,
        path: url.pathname + url.search,
        headers: Object.fromEntries(request.headers),
        body: await request.text(),
      });
      return answers[Math.min(seen.length, answers.length) - 1]!();
    },
  });
  servers.push(server);
  return { seen, baseUrl: `http://127.0.0.1:${server.port}` };
}

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
