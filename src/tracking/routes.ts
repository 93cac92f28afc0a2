/**
 * Public tracking and unsubscribe endpoints (no API key: the signed token is the authority, on the Host it was
 * minted for: a domain's tracking host answers its own mail's tokens only). The open pixel and the click redirect
 * are never cached, so every fetch reaches Mailroom; an invalid token is 404 whatever is wrong with it. An expired click token answers 410 with a page that names its link as text: no Location, no refresh,
 * no script, so it cannot be used to send anyone elsewhere.
 */
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import { confirmPage, donePage, expiredLinkPage, invalidLinkPage, PAGE_HEADERS } from "./pages.ts";
import { clientOf, hostNameOf } from "../http/client.ts";
import type { TrackingService } from "./service.ts";
import { BodyTooLarge, readCappedText } from "../lib/capped-body.ts";
import { changedStatus, invalidPreferenceLink, preferencePage } from "../preferences/pages.ts";
import type { PreferenceService } from "../preferences/service.ts";

/** A transparent 1×1 GIF (the smallest image every mail client renders). */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const NO_CACHE = {
  "cache-control": "no-store, no-cache, must-revalidate, private, max-age=0",
  pragma: "no-cache",
  expires: "0",
};

export function trackingRoutes(deps: { tracking: TrackingService; preferences?: PreferenceService }) {
  const { tracking, preferences } = deps;
  const tags = ["Tracking"];
  return new Elysia()
    .get(
      "/t/o/:token",
      async ({ params, request, server }) => {
        if (!(await tracking.open(params.token, clientOf(request, server), hostNameOf(request))))
          throw new AppError("not_found", "Not found.");
        return new Response(PIXEL, {
          headers: { "content-type": "image/gif", "content-length": String(PIXEL.length), ...NO_CACHE },
        });
      },
      { detail: { summary: "Open-tracking pixel", tags } },
    )
    .get(
      "/t/c/:token",
      async ({ params, request, server }) => {
        const target = await tracking.click(params.token, clientOf(request, server), hostNameOf(request));
        if (!target) throw new AppError("not_found", "Not found.");
        // 410: the redirect is gone for good (a link checker learns so), while the reader is shown where it led.
        if (target.expired)
          return new Response(expiredLinkPage(target.link), { status: 410, headers: { ...PAGE_HEADERS, ...NO_CACHE } });
        return new Response(null, {
          status: 302,
          headers: { location: target.link, "referrer-policy": "no-referrer", ...NO_CACHE },
        });
      },
      {
        detail: {
          summary: "Click-tracking redirect to the link written in the message; once expired, a page naming it (410)",
          tags,
        },
      },
    )
    .get(
      "/u/:token",
      async ({ params, request }) => {
        const host = hostNameOf(request);
        // Topic mail's and contacts' links first (docs/contacts-preferences.md), then `unsubscribe: true` mail's.
        const view = await preferences?.page(params.token, host);
        if (view) return new Response(preferencePage(view), { headers: PAGE_HEADERS });
        const target = await tracking.unsubscribeTarget(params.token, host);
        if (!target) return new Response(invalidLinkPage(), { status: 404, headers: PAGE_HEADERS });
        return new Response(confirmPage(target.recipient, target.from, target.unsubscribed), { headers: PAGE_HEADERS });
      },
      { detail: { summary: "Unsubscribe confirmation or preference page (changes nothing)", tags } },
    )
    .post(
      "/u/:token",
      // RFC 8058 §3.2: mailbox providers POST "List-Unsubscribe=One-Click" here; the signed token alone decides.
      async ({ params, request }) => {
        const host = hostNameOf(request);
        if (preferences?.recognises(params.token)) {
          const form = await pageForm(request);
          const view =
            form?.get("form") === "preferences"
              ? await preferences.save(params.token, host, {
                  subscribed: new Set(form.getAll("topic")),
                  everything: form.get("everything") === "1",
                })
              : await preferences.oneClick(params.token, host);
          if (!view) return new Response(invalidPreferenceLink(), { status: 404, headers: PAGE_HEADERS });
          const status = changedStatus(view, form?.get("form") !== "preferences");
          return new Response(preferencePage(view, status), { headers: PAGE_HEADERS });
        }
        const target = await tracking.unsubscribe(params.token, host);
        if (!target) return new Response(invalidLinkPage(), { status: 404, headers: PAGE_HEADERS });
        return new Response(donePage(target.recipient, target.from), { headers: PAGE_HEADERS });
      },
      { parse: "none", detail: { summary: "One-click unsubscribe (RFC 8058), or the preference page's form", tags } },
    );
}

/** Room for the page's form with every topic ticked (the contacts area caps topics at 1,000 ids of 36 characters). */
const MAX_FORM_BYTES = 64 * 1024;

/** The form a POST carries (one-click's `List-Unsubscribe=One-Click`, or the page's), read under a byte cap; null past it. */
async function pageForm(request: Request): Promise<URLSearchParams | null> {
  try {
    return new URLSearchParams(await readCappedText(request as unknown as Response, MAX_FORM_BYTES));
  } catch (error) {
    if (error instanceof BodyTooLarge) return null;
    throw error;
  }
}
