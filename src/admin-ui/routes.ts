/**
 * The admin UI (docs/architecture.md#admin-ui) at `/`: a page shell, its script and its stylesheet, all carried in the executable (the
 * bundle is built by a macro at transpile time, see admin-ui/bundle.ts), and the preview document an email is shown in
 * when the user asks for its remote images. The UI talks only to the public /v1 API with the user's key.
 * Invariants: every UI response forbids inline script and framing by another origin; the preview document is
 * sandboxed (no script, no origin), answers only the UI's own requests, and reflects only what the browser sent.
 */
import { Elysia } from "elysia";
import type { Config } from "../config/options.ts";
import { AppError } from "../errors.ts";
import { uiScript, uiStyle } from "./bundle.ts" with { type: "macro" };

const SCRIPT = uiScript();
const STYLE = uiStyle();

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mailroom</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/ui/style.css">
<script type="module" src="/ui/app.js"></script>
</head>
<body>
<div id="app"><noscript>The Mailroom admin needs JavaScript.</noscript></div>
</body>
</html>`;

// A previewed email (a sandbox="" srcdoc frame) inherits this policy. style-src allows inline styles because
// email layouts live in <style> and style="" (the app itself renders only escaped text, and styles cannot run
// script); img-src stays 'self' data: (data: also for the empty favicon), so no remote image or CSS url() in a
// preview can load even if the UI failed to take it out: opening a message never tells its sender.
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

const asset = (body: string, type: string) => () =>
  new Response(body, { headers: { "content-type": type, "cache-control": "no-cache", ...SECURITY_HEADERS } });

// The email as its sender wrote it, remote images, styles and fonts included — which is why the user must ask —
// but still no script, plugin, form or origin of its own (`sandbox`), and no Referer telling image hosts the
// admin's address.
const PREVIEW_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "sandbox; default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline' http: https:; font-src http: https: data:; media-src http: https: data:; frame-ancestors 'self'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

/**
 * `POST /ui/preview` (form field `html`, posted by the UI into its preview frame): the HTML back as a sandboxed
 * document. It holds no data of its own, so it needs no key; a cross-site form could still make it show someone's
 * page under this origin, so only what the browser says is this origin's page loading a frame is answered (Fetch
 * Metadata, which pages cannot forge; Origin is "null" here, the target frame being sandboxed).
 */
async function preview(request: Request, maxBytes: number): Promise<Response> {
  if (request.headers.get("sec-fetch-site") !== "same-origin" || request.headers.get("sec-fetch-dest") !== "iframe") {
    throw new AppError("unauthorized", "The preview answers only the admin UI's own preview frame.");
  }
  const length = Number(request.headers.get("content-length") ?? "NaN");
  if (!(length <= maxBytes))
    throw new AppError("payload_too_large", `A preview is at most ${maxBytes} bytes, with its Content-Length.`);
  if (!(request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) {
    throw new AppError("validation_error", "Post the preview as a form (application/x-www-form-urlencoded).", {
      details: [{ path: "html", message: "required" }],
    });
  }
  const html = (await request.formData()).get("html");
  if (typeof html !== "string")
    throw new AppError("validation_error", "The form has no html field.", {
      details: [{ path: "html", message: "required" }],
    });
  return new Response(html, { headers: PREVIEW_HEADERS });
}

export function uiRoutes(config: Config) {
  const detail = { hide: true };
  return (
    new Elysia()
      .get("/", asset(PAGE, "text/html; charset=utf-8"), { detail })
      // The pages one-time links open (the token after #, which never reaches a server log): the same shell.
      .get("/setup", asset(PAGE, "text/html; charset=utf-8"), { detail })
      .get("/password", asset(PAGE, "text/html; charset=utf-8"), { detail })
      .get("/invite", asset(PAGE, "text/html; charset=utf-8"), { detail })
      .get("/ui/app.js", asset(SCRIPT, "text/javascript; charset=utf-8"), { detail })
      .get("/ui/style.css", asset(STYLE, "text/css; charset=utf-8"), { detail })
      .post("/ui/preview", ({ request }) => preview(request, config.http.max_body_bytes), { parse: "none", detail })
  );
}
