/**
 * How an email's HTML is shown (sent mail, received mail, templates, drafts): in an iframe with `sandbox=""`, so
 * nothing in it runs or reaches this origin. By default with every remote resource taken out — opening a message
 * must not tell its sender it was read — and the page's CSP, which a srcdoc frame inherits, blocks any the UI
 * missed. Asked to, the frame loads the message as it is from `POST /ui/preview` instead, a document of its own
 * whose CSP allows remote images, styles and fonts but still no script and no origin.
 */
import { useEffect, useId, useMemo, useState } from "preact/hooks";

/**
 * The email's HTML with remote resources taken out (kept as data-blocked-* attributes), so the preview asks
 * nothing of another server — opening a message must not tell its sender it was read. Parsed inertly by
 * DOMParser: nothing in it runs or loads here.
 */
export function withoutRemote(html: string): { html: string; blocked: number } {
  const doc = new DOMParser().parseFromString(html, "text/html");
  let blocked = 0;
  const remote = /^\s*(https?:)?\/\//i;
  // CSS reaches other servers through url(…) (backgrounds, fonts, @import): those become `none`.
  const remoteInCss = /url\(\s*(['"]?)\s*(https?:)?\/\/[^)]*\)/gi;
  const cssWithoutRemote = (css: string) =>
    css.replace(remoteInCss, () => {
      blocked++;
      return "none";
    });
  for (const el of Array.from(doc.querySelectorAll("style"))) el.textContent = cssWithoutRemote(el.textContent ?? "");
  for (const el of Array.from(doc.querySelectorAll("[style]")))
    el.setAttribute("style", cssWithoutRemote(el.getAttribute("style")!));
  for (const el of Array.from(doc.querySelectorAll("[src], [srcset], [background], link[href]"))) {
    for (const attr of ["src", "srcset", "background", "href"]) {
      const value = el.getAttribute(attr);
      if (value === null || (attr === "href" && el.tagName !== "LINK")) continue;
      if (attr === "srcset" ? /(https?:)?\/\//i.test(value) : remote.test(value)) {
        el.setAttribute(`data-blocked-${attr}`, value);
        el.removeAttribute(attr);
        blocked++;
      }
    }
  }
  return { html: `<!doctype html>${doc.documentElement.outerHTML}`, blocked };
}

/** Hands `html` to the frame named `target` through a form POST: the only way to give it a document of its own. */
function postTo(target: string, html: string) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = "/ui/preview";
  form.target = target;
  form.hidden = true;
  const field = document.createElement("textarea");
  field.name = "html";
  field.value = html;
  form.append(field);
  document.body.append(form);
  form.submit();
  form.remove();
}

export function Preview({ html, title = "HTML preview" }: { html: string; title?: string }) {
  const clean = useMemo(() => withoutRemote(html), [html]);
  const [remote, setRemote] = useState(false);
  const name = `preview-${useId()}`;
  useEffect(() => {
    if (remote) postTo(name, html);
  }, [remote, html]);
  return (
    <>
      <p class="hint">
        Shown without scripts
        {remote
          ? "; remote resources loaded, as you asked"
          : clean.blocked
            ? `; ${clean.blocked} remote resource${clean.blocked === 1 ? "" : "s"} (images, fonts, styles) not loaded, so opening it tells the sender nothing`
            : ""}
        .{" "}
        {clean.blocked > 0 && !remote && (
          <button type="button" class="link" onClick={() => setRemote(true)}>
            Load remote images
          </button>
        )}
      </p>
      {remote ? (
        <iframe key="remote" class="preview" name={name} title={title} sandbox="" referrerpolicy="no-referrer" />
      ) : (
        <iframe key="safe" class="preview" title={title} sandbox="" srcdoc={clean.html} referrerpolicy="no-referrer" />
      )}
    </>
  );
}
