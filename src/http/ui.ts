/**
 * The admin UI (DESIGN §10) at `/`: a page shell, its script and its stylesheet, all carried in the executable (the
 * bundle is built by a macro at transpile time, see ui-bundle.ts). The UI talks only to the public /v1 API with the
 * user's key. Invariant: every UI response forbids inline script, any other origin and framing.
 */
import { Elysia } from "elysia";
import { uiScript, uiStyle } from "./ui-bundle.ts" with { type: "macro" };

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
  "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

const asset = (body: string, type: string) => () =>
  new Response(body, { headers: { "content-type": type, "cache-control": "no-cache", ...SECURITY_HEADERS } });

export function uiRoutes() {
  const detail = { hide: true };
  return new Elysia()
    .get("/", asset(PAGE, "text/html; charset=utf-8"), { detail })
    .get("/ui/app.js", asset(SCRIPT, "text/javascript; charset=utf-8"), { detail })
    .get("/ui/style.css", asset(STYLE, "text/css; charset=utf-8"), { detail });
}
