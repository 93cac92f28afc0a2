/**
 * The OpenAPI document the client types are generated from: the server's own `/openapi.json`, read the way a client
 * would read it, so the generators see exactly what the routes' contracts publish
 * (docs/architecture.md#one-contract-per-route). The app is created on a temporary data directory and asked through `app.http.handle` — no port, no
 * network, nothing started — and then stopped and its directory removed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildConfig } from "../../src/config/load.ts";
import { silentLogger } from "../../src/lib/logger.ts";
import { createApp } from "../../src/server/app.ts";

/** The parts of an OpenAPI 3.1 document the generators read. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

export interface OpenApiOperation {
  summary?: string;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

/** JSON Schema as the document writes it (TypeBox's output, with named schemas as `$ref`s). */
export type JsonSchema = Record<string, unknown>;

/** Reads GET /openapi.json from an app on a fresh temporary data directory (always on SQLite). */
export async function readDocument(): Promise<OpenApiDocument> {
  const dataDir = mkdtempSync(join(tmpdir(), "mailroom-generate-"));
  try {
    const config = buildConfig(
      {},
      {},
      {
        "": { data_dir: dataDir },
        http: { host: "127.0.0.1", port: 0 },
        dns: { servers: ["127.0.0.1:1"] },
        smtp: { submission_port: 0, smtps_port: 0 },
        inbound: { port: 0 },
        store: { url: "" },
      },
    );
    const app = await createApp(config, { logger: silentLogger });
    try {
      const response = await app.http.handle(new Request("http://localhost/openapi.json"));
      if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
      return (await response.json()) as OpenApiDocument;
    } finally {
      await app.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(JSON.stringify(await readDocument(), null, 2));
