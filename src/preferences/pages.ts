/**
 * The preference page a recipient reaches from an unsubscribe link (docs/contacts-preferences.md#the-preference-page):
 * the organisation's name, each listed topic with its current choice as a checkbox, "unsubscribe from everything",
 * and one submit button. Static html that works without JavaScript, at any width (one column, native controls with
 * their labels, visible focus) and by keyboard (document order is tab order). Everything interpolated is escaped;
 * no script, no external resource, and the form posts only to the page itself (the routes' CSP, src/tracking/pages.ts).
 */
import { escapeAttribute, escapeText } from "entities";
import type { PreferencePage } from "./model.ts";

/** `j***@example.org`: enough for the reader to recognise the address, not enough to harvest it from a forwarded link. */
const masked = (address: string) => {
  const at = address.lastIndexOf("@");
  return `${address.slice(0, Math.min(1, at))}***${address.slice(at)}`;
};

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#1f2328}
h1{font-size:1.5rem;line-height:1.25}fieldset{border:1px solid #d0d7de;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
legend{font-weight:600;padding:0 .25rem}.choice{display:flex;gap:.75rem;align-items:flex-start;padding:.5rem 0}
.choice input{width:1.25rem;height:1.25rem;margin:.15rem 0 0;flex:none}.choice label{font-weight:600;cursor:pointer}
.choice .note{display:block;margin-top:.1rem;font-weight:400;color:#57606a}button{font:inherit;padding:.6rem 1.5rem;cursor:pointer;
border-radius:6px;border:1px solid #1f6feb;background:#1f6feb;color:#fff}
:focus-visible{outline:3px solid #0969da;outline-offset:2px}.status{padding:.75rem 1rem;border-radius:6px;
background:#dafbe1;border:1px solid #4ac26b}@media (max-width:420px){button{width:100%}}`;

function shell(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeText(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeText(title)}</h1>
${body}
</main>
</body>
</html>`;
}

/** One checkbox with its label and, below the label, its note (described-by, so a screen reader reads it too). */
function choice(
  input: { id: string; name: string; value: string; label: string; note: string | null },
  checked: boolean,
  disabled = false,
) {
  const id = escapeAttribute(input.id);
  const described = input.note ? ` aria-describedby="${id}-note"` : "";
  const note = input.note ? `<span class="note" id="${id}-note">${escapeText(input.note)}</span>` : "";
  return `<div class="choice"><input type="checkbox" id="${id}" name="${input.name}" value="${escapeAttribute(input.value)}"${
    checked ? " checked" : ""
  }${disabled ? " disabled" : ""}${described}>
<label for="${id}">${escapeText(input.label)}${note}</label></div>`;
}

/** The page; `status` is the sentence saying what the last POST changed, if any. */
export function preferencePage(view: PreferencePage, status?: string): string {
  const org = view.organizationName || "this sender";
  const topics = view.topics.length
    ? `<fieldset><legend>Topics</legend>
${view.topics
  .map((topic) =>
    choice(
      { id: `t-${topic.id}`, name: "topic", value: topic.id, label: topic.name, note: topic.description },
      topic.subscribed,
    ),
  )
  .join("\n")}
</fieldset>`
    : "";
  const all = { id: "everything", name: "everything", value: "1", label: "Unsubscribe from everything" };
  // Leaving everything is for good here: only the sender can add the address back (docs/contacts-preferences.md).
  const everything = view.unsubscribedEverywhere
    ? choice({ ...all, note: `You receive no topic mail or broadcasts from ${org}.` }, true, true)
    : choice({ ...all, note: `No topic mail or broadcasts from ${org}.` }, false);
  return shell(
    "Email preferences",
    `${status ? `<p class="status" role="status">${escapeText(status)}</p>\n` : ""}<p>Choose what <strong>${escapeText(
      org,
    )}</strong> sends to <strong>${escapeText(masked(view.email))}</strong>. Mail you asked for, such as receipts or password resets, still reaches you.</p>
<form method="post">
<input type="hidden" name="form" value="preferences">
${topics}
${everything}
<p><button type="submit">Save preferences</button></p>
</form>`,
  );
}

/** What a one-click or saved change says at the top of the page. */
export function changedStatus(view: PreferencePage, oneClick: boolean): string {
  if (!oneClick) return "Your preferences are saved.";
  const topic = view.topics.find((candidate) => candidate.id === view.topicId);
  return topic ? `You are unsubscribed from ${topic.name}.` : "You are unsubscribed.";
}

export function invalidPreferenceLink(): string {
  return shell("Link not valid", "<p>This unsubscribe link is not valid. It may have been copied incompletely.</p>");
}
