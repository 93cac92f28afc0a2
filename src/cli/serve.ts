/**
 * `serve`: starts the server (server/app.ts) and prints the start banner — the admin UI, the first user's one-time
 * setup link while there is none, the API docs, whether links by email are off, then the `mailroom ready` line that scripts and tests wait for — and
 * stops it cleanly on SIGTERM or SIGINT (a second signal exits at once).
 */
import { publicLinkBase } from "../config/links.ts";
import { createApp } from "../server/app.ts";
import type { Invocation } from "./context.ts";
import { initialise } from "./init.ts";
import { out } from "./output.ts";

export async function serve({ config, cli, secretKey }: Invocation): Promise<void> {
  const app = await createApp(config, { secretKey });
  // The first-run key is made only once every listener is up: a start that fails (a port taken, no permission for
  // 587) must leave it to the next start rather than print it and exit.
  const listeners = await app.start();
  await initialise(app.services, cli);
  const http = listeners.find((l) => l.name === "http")!;
  const base = config.http.public_url || `http://${http.host === "0.0.0.0" ? "127.0.0.1" : http.host}:${http.port}`;
  out(
    `Admin UI: ${base}/   (sign in with email and password, or with an API key; a new one: ${cli} keys create --name admin --scope full_access)`,
  );
  // Printed at each start until it is used: whoever runs the server creates the first user, and only they see it.
  const setup = await app.services.people.setupLink();
  if (setup)
    out(`First user: ${base}/setup#${setup}   (one-time link: creates the owner who signs in with a password)`);
  out(`API docs: ${base}/docs`);
  // Mailed links (invitations, password resets) are built from the configured address only, never a request's Host.
  if (!publicLinkBase(config))
    out(
      "Links by email are off (invitations, password resets): set [http] public_url (or [server] hostname) to this server's public address",
    );
  out(`mailroom ready ${listeners.map((l) => `${l.name}=${l.host}:${l.port}`).join(" ")}`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    app.services.logger.info("shutting down", { signal });
    await app.stop();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
