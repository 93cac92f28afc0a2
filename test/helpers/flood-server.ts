/**
 * A real HTTP(S) server on loopback (node:http / node:https, port 0) that answers every request with a body far
 * larger than any cap Mailroom keeps — written chunk by chunk as the client takes it (backpressure honoured), so
 * what it counts as sent is what the client actually pulled, give or take the sockets' buffers. Tests of byte caps
 * assert on that count: a client that stops reading at its cap leaves most of the body unsent. Always `close()` it.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";

export interface FloodServer {
  port: number;
  /** Bytes of body each finished response wrote before it ended or its client hung up, in order. */
  sent: number[];
  /** Resolves with the bytes written once the next response (in order) is over. */
  responseOver(): Promise<number>;
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, "a");

export async function startFloodServer(options: {
  totalBytes: number;
  contentType?: string;
  tls?: { cert: string; key: string };
}): Promise<FloodServer> {
  const sent: number[] = [];
  const waiting: Array<(bytes: number) => void> = [];
  const settled: number[] = [];
  const finish = (bytes: number) => {
    sent.push(bytes);
    const next = waiting.shift();
    if (next) next(bytes);
    else settled.push(bytes);
  };

  const handler = (request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    // No Content-Length: the client cannot refuse by the header and must count what arrives.
    response.writeHead(200, { "content-type": options.contentType ?? "text/plain" });
    let written = 0;
    let over = false;
    const end = () => {
      if (over) return;
      over = true;
      finish(written);
    };
    response.on("close", end);
    const pump = () => {
      while (!over && written < options.totalBytes) {
        written += CHUNK.length;
        if (!response.write(CHUNK)) return void response.once("drain", pump);
      }
      if (!over) response.end(end);
    };
    pump();
  };

  const server = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, handler)
    : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    sent,
    responseOver: () =>
      new Promise<number>((resolve) => (settled.length ? resolve(settled.shift()!) : waiting.push(resolve))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
