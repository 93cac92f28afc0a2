/**
 * The organisation (docs/operations.md): its request limit, daily quota and today's usage, retention, what it stores, and
 * its pause, with a form for the settings. Invariant: what the screen shows is the server's answer, read again
 * after a change; a field left empty returns its setting to the configured default (the quota: to none), and only
 * the fields changed are sent.
 */
import { useEffect, useState } from "preact/hooks";
import type { Organization } from "../../clients/node/src/types.ts";
import { useWhyNot } from "../access.ts";
import { Alert } from "../alert.tsx";
import { api } from "../api.ts";
import { size, when } from "../format.ts";
import { useAction, usePolled } from "../hooks.ts";
import { PauseControl, useSending } from "../pauses.tsx";
import { PageHeader } from "../page-header.tsx";

/** The form's fields, as typed: text, so that an empty one can mean "the default". */
interface Fields {
  name: string;
  rate_limit: string;
  daily_quota: string;
  content_days: string;
  metadata_days: string;
}

const fieldsOf = (org: Organization): Fields => ({
  name: org.name,
  rate_limit: String(org.rate_limit),
  daily_quota: org.daily_quota === null ? "" : String(org.daily_quota),
  content_days: String(org.retention.content_days),
  metadata_days: String(org.retention.metadata_days),
});

/** A changed number field as PATCH takes it: empty is null (the default), else the number typed. */
const numberOf = (typed: string) => (typed.trim() === "" ? null : Number(typed));

/** Only what changed: an unchanged field is left out, so the settings the form did not touch stay as they are. */
function patchOf(before: Fields, after: Fields) {
  const changed = (field: keyof Fields) => before[field] !== after[field];
  const retention = {
    ...(changed("content_days") && { content_days: numberOf(after.content_days) }),
    ...(changed("metadata_days") && { metadata_days: numberOf(after.metadata_days) }),
  };
  return {
    ...(changed("name") && { name: after.name }),
    ...(changed("rate_limit") && { rate_limit: numberOf(after.rate_limit) }),
    ...(changed("daily_quota") && { daily_quota: numberOf(after.daily_quota) }),
    ...(Object.keys(retention).length && { retention }),
  };
}

function Usage({ org }: { org: Organization }) {
  if (org.daily_quota === null)
    return (
      <p>
        No daily quota: {org.usage_today} live {org.usage_today === 1 ? "message" : "messages"} accepted today (UTC).
      </p>
    );
  const left = Math.max(0, org.daily_quota - org.usage_today);
  return (
    <>
      <label class="meter">
        {org.usage_today} of {org.daily_quota} live messages today (UTC)
        <progress max={org.daily_quota} value={Math.min(org.usage_today, org.daily_quota)} />
      </label>
      <p class={left === 0 ? "warning" : "hint"}>
        {left === 0
          ? "The quota is used up: sending answers 429 daily_quota_exceeded until 00:00 UTC."
          : `${left} more until 00:00 UTC, when the count starts again.`}
      </p>
    </>
  );
}

export function OrganizationScreen() {
  const { data: org, error, reload } = usePolled(() => api.get<Organization>("/v1/organization"), []);
  const sending = useSending();
  const whyNotWrite = useWhyNot("organization:write", "change the organisation's settings");
  const canWrite = !whyNotWrite;
  const { act, actionError } = useAction(reload);
  const [fields, setFields] = useState<Fields | null>(null);
  const [saved, setSaved] = useState(false);
  // The form starts from the server's values, and again after each save; polling does not overwrite typing.
  useEffect(() => {
    if (org && !fields) setFields(fieldsOf(org));
  }, [org, fields]);

  const edit = (field: keyof Fields) => (e: Event) => {
    setSaved(false);
    setFields({ ...fields!, [field]: (e.currentTarget as HTMLInputElement).value });
  };
  const save = (e: Event) => {
    e.preventDefault();
    if (!org || !fields) return;
    void act(async () => {
      const updated = await api.patch<Organization>("/v1/organization", patchOf(fieldsOf(org), fields));
      setFields(fieldsOf(updated));
      setSaved(true);
    });
  };

  return (
    <section aria-labelledby="organization-title">
      <PageHeader
        id="organization-title"
        title="Organisation"
        description="The limits every key of this organisation shares, how long its mail is kept, and what it stores."
      />
      <Alert message={error} />
      {org && (
        <div class="cards">
          <section class="card" aria-labelledby="limits-title">
            <h2 id="limits-title">Limits</h2>
            <p>{org.rate_limit} API requests and SMTP messages per minute, all keys together.</p>
            <Usage org={org} />
            <PauseControl sending={sending} scope="organization" what="all sending" />
          </section>
          <section class="card" aria-labelledby="retention-title">
            <h2 id="retention-title">Retention</h2>
            <p>
              The content of a finished message (its raw MIME, bodies and attachments) is kept{" "}
              <strong>{org.retention.content_days} days</strong>; its record and events{" "}
              <strong>{org.retention.metadata_days} days</strong>. Statistics outlive both, and mail still waiting is
              never removed.
            </p>
          </section>
          <section class="card" aria-labelledby="storage-title">
            <h2 id="storage-title">Storage</h2>
            {org.storage ? (
              <p>
                {org.storage.messages} sent messages, {size(org.storage.content_bytes)} of content (counted{" "}
                {when(org.storage.measured_at)}).
              </p>
            ) : (
              <p class="hint">
                Not counted yet: the retention job counts what is stored when it runs, at start and every hour.
              </p>
            )}
          </section>
        </div>
      )}
      {org && fields && canWrite && (
        <form class="card" onSubmit={save} aria-labelledby="settings-title">
          <h2 id="settings-title">Settings</h2>
          <label>
            Name
            <input required maxLength={100} value={fields.name} onInput={edit("name")} />
          </label>
          <label>
            Requests per minute
            <input type="number" min={1} value={fields.rate_limit} onInput={edit("rate_limit")} />
            <span class="hint">Empty: the configured default.</span>
          </label>
          <label>
            Daily quota (live messages per UTC day)
            <input type="number" min={1} value={fields.daily_quota} onInput={edit("daily_quota")} />
            <span class="hint">Empty: no quota.</span>
          </label>
          <label>
            Keep content (days)
            <input type="number" min={1} max={36500} value={fields.content_days} onInput={edit("content_days")} />
            <span class="hint">Empty: the configured default.</span>
          </label>
          <label>
            Keep records (days)
            <input type="number" min={1} max={36500} value={fields.metadata_days} onInput={edit("metadata_days")} />
            <span class="hint">Empty: the configured default.</span>
          </label>
          <button type="submit">Save settings</button>
          {saved && (
            <p role="status" class="hint">
              Saved.
            </p>
          )}
          <Alert message={actionError} />
        </form>
      )}
    </section>
  );
}
