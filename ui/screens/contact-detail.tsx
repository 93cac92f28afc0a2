/**
 * One contact (docs/contacts.md): its names and `unsubscribed`, its property values, the segments it is in, its
 * choice of each topic (changeable: docs/contacts.md#topic-rules says what a choice means at send), and the messages
 * sent to its address (the emails list filtered by recipient). Invariant: every part shows the server's answer and
 * reloads after a change; a topic shown "Subscribed" is the contact's effective subscription, the one a send checks.
 */
import { Fragment } from "preact";
import { useEffect, useState } from "preact/hooks";
import { useWhyNot } from "../access.ts";
import { api, query, type Page } from "../api.ts";
import { Alert } from "../alert.tsx";
import { when } from "../format.ts";
import { Guarded } from "../guarded.tsx";
import { useAction, usePolled } from "../hooks.ts";
import { PageHeader } from "../page-header.tsx";
import type { Contact, ContactProperty, ContactTopic, Segment } from "../../clients/node/src/generated.ts";

/** A contact's name as people write it, or a dash. */
export const fullName = (c: Pick<Contact, "first_name" | "last_name">) =>
  [c.first_name, c.last_name].filter(Boolean).join(" ") || "—";

/** Whether the contact receives broadcasts and topic mail at all, in words and colour. */
export function Subscribed({ unsubscribed }: { unsubscribed: boolean }) {
  return unsubscribed ? (
    <span class="status status-unsubscribed">Unsubscribed from everything</span>
  ) : (
    <span class="status status-subscribed">Subscribed</span>
  );
}

const path = (id: string) => `/v1/contacts/${encodeURIComponent(id)}`;

export function ContactDetail({ id }: { id: string }) {
  const { data: contact, error, reload } = usePolled(() => api.get<Contact>(path(id)), [id]);
  return (
    <section aria-labelledby="contact-title">
      <p>
        <a href="#/contacts">← Contacts</a>
      </p>
      <PageHeader
        id="contact-title"
        title={contact?.email ?? "Contact"}
        description={contact ? fullName(contact) : undefined}
      />
      <Alert message={error} />
      {contact && (
        <>
          <Names contact={contact} reload={reload} />
          <Properties contact={contact} reload={reload} />
          <Segments id={contact.id} />
          <Topics id={contact.id} unsubscribed={contact.unsubscribed} />
          <Messages email={contact.email} />
        </>
      )}
    </section>
  );
}

function Names({ contact, reload }: { contact: Contact; reload: () => Promise<void> }) {
  const why = useWhyNot("contacts:write", "change contacts");
  const [form, setForm] = useState({ first: "", last: "", unsubscribed: false });
  useEffect(
    () =>
      setForm({ first: contact.first_name ?? "", last: contact.last_name ?? "", unsubscribed: contact.unsubscribed }),
    [contact.updated_at],
  );
  const { act, actionError } = useAction(reload);
  const save = (e: Event) => {
    e.preventDefault();
    if (why) return;
    void act(() =>
      api.patch(path(contact.id), {
        first_name: form.first.trim() || null,
        last_name: form.last.trim() || null,
        unsubscribed: form.unsubscribed,
      }),
    );
  };
  const remove = () => {
    if (!confirm(`Delete ${contact.email}? Its segments and topic choices go with it.`)) return;
    void act(async () => {
      await api.del(path(contact.id));
      location.hash = "#/contacts";
    });
  };
  return (
    <form class="card" onSubmit={save} aria-label="Contact">
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <Subscribed unsubscribed={contact.unsubscribed} />
        </dd>
        <dt>Added</dt>
        <dd>{when(contact.created_at)}</dd>
        <dt>Changed</dt>
        <dd>{when(contact.updated_at)}</dd>
      </dl>
      <div class="inline-form">
        <label>
          First name
          <input
            value={form.first}
            disabled={!!why}
            onInput={(e) => setForm({ ...form, first: e.currentTarget.value })}
          />
        </label>
        <label>
          Last name
          <input
            value={form.last}
            disabled={!!why}
            onInput={(e) => setForm({ ...form, last: e.currentTarget.value })}
          />
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={form.unsubscribed}
            disabled={!!why}
            onChange={(e) => setForm({ ...form, unsubscribed: e.currentTarget.checked })}
          />
          Unsubscribed from everything (no broadcast, no topic mail)
        </label>
      </div>
      <div class="actions">
        <Guarded why={why} type="submit">
          Save
        </Guarded>
        <Guarded why={why} onClick={remove}>
          Delete contact
        </Guarded>
      </div>
      <Alert message={actionError} />
    </form>
  );
}

function Properties({ contact, reload }: { contact: Contact; reload: () => Promise<void> }) {
  const why = useWhyNot("contacts:write", "change contacts");
  // The organisation's definitions change seldom: looked at once a minute, not with every poll of the contact.
  const { data: defined } = usePolled(
    () => api.get<Page<ContactProperty>>(`/v1/contact-properties${query({ limit: 100 })}`),
    [],
    60_000,
  );
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const { act, actionError } = useAction(reload);
  const values = Object.entries(contact.properties ?? {});
  const chosen = defined?.data.find((p) => p.key === (key || defined.data[0]?.key));
  const set = (e: Event) => {
    e.preventDefault();
    if (why || !chosen) return;
    const typed = chosen.type === "number" ? Number(value) : value;
    void act(async () => {
      await api.patch(path(contact.id), { properties: { [chosen.key]: value === "" ? null : typed } });
      setValue("");
    });
  };
  return (
    <div class="card" role="region" aria-labelledby="contact-properties">
      <h2 id="contact-properties">Properties</h2>
      {values.length === 0 ? (
        <p>
          No property values yet. A property (a plan, a city, a count) is defined once on the{" "}
          <a href="#/properties">Properties</a> screen; then each contact may carry a value of it.
        </p>
      ) : (
        <dl class="facts">
          {values.map(([k, v]) => (
            <Fragment key={k}>
              <dt>{k}</dt>
              <dd>
                {String(v.value)} <span class="hint">({v.type})</span>
              </dd>
            </Fragment>
          ))}
        </dl>
      )}
      {defined && defined.data.length > 0 && (
        <form class="inline-form" onSubmit={set} aria-label="Set a property">
          <label>
            Property
            <select value={chosen?.key} disabled={!!why} onChange={(e) => setKey(e.currentTarget.value)}>
              {defined.data.map((p) => (
                <option key={p.id} value={p.key}>
                  {p.key} ({p.type})
                </option>
              ))}
            </select>
          </label>
          <label>
            Value (empty clears it)
            <input
              type={chosen?.type === "number" ? "number" : "text"}
              step="any"
              value={value}
              disabled={!!why}
              onInput={(e) => setValue(e.currentTarget.value)}
            />
          </label>
          <Guarded why={why} type="submit">
            Set
          </Guarded>
        </form>
      )}
      <Alert message={actionError} />
    </div>
  );
}

function Segments({ id }: { id: string }) {
  const why = useWhyNot("contacts:write", "change segments");
  const { data, error, reload } = usePolled(
    () => api.get<Page<Segment>>(`${path(id)}/segments${query({ limit: 100 })}`),
    [id],
  );
  const { data: all } = usePolled(() => api.get<Page<Segment>>(`/v1/segments${query({ limit: 100 })}`), [], 60_000);
  const { act, actionError } = useAction(reload);
  const [choice, setChoice] = useState("");
  const others = all?.data.filter((s) => !data?.data.some((m) => m.id === s.id)) ?? [];
  const target = choice || others[0]?.id;
  const join = (e: Event) => {
    e.preventDefault();
    if (why || !target) return;
    void act(() => api.post(`${path(id)}/segments/${encodeURIComponent(target)}`));
  };
  return (
    <div class="card" role="region" aria-labelledby="contact-segments">
      <h2 id="contact-segments">Segments</h2>
      <Alert message={actionError ?? error} />
      {data && data.data.length === 0 && <p>In no segment.</p>}
      {data && data.data.length > 0 && (
        <ul>
          {data.data.map((s) => (
            <li key={s.id}>
              <a href={`#/segments/${encodeURIComponent(s.id)}`}>{s.name}</a>{" "}
              <Guarded
                why={why}
                label={`Take out of ${s.name}`}
                onClick={() => void act(() => api.del(`${path(id)}/segments/${encodeURIComponent(s.id)}`))}
              >
                Take out
              </Guarded>
            </li>
          ))}
        </ul>
      )}
      {others.length > 0 ? (
        <form class="inline-form" onSubmit={join} aria-label="Add to a segment">
          <label>
            Segment
            <select value={target} disabled={!!why} onChange={(e) => setChoice(e.currentTarget.value)}>
              {others.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <Guarded why={why} type="submit">
            Add to segment
          </Guarded>
        </form>
      ) : (
        all?.data.length === 0 && (
          <p class="hint">
            No segment exists yet: <a href="#/segments">create one</a>.
          </p>
        )
      )}
    </div>
  );
}

function Topics({ id, unsubscribed }: { id: string; unsubscribed: boolean }) {
  const why = useWhyNot("contacts:write", "change topic subscriptions");
  const { data, error, reload } = usePolled(
    () => api.get<Page<ContactTopic>>(`${path(id)}/topics${query({ limit: 100 })}`),
    [id],
  );
  const { act, actionError } = useAction(reload);
  const choose = (topic: ContactTopic, subscription: "opt_in" | "opt_out") =>
    void act(() => api.patch(`${path(id)}/topics`, [{ id: topic.id, subscription }]));
  return (
    <div class="card" role="region" aria-labelledby="contact-topics">
      <h2 id="contact-topics">Topics</h2>
      {unsubscribed && (
        <p class="warning">
          Unsubscribed from everything: no topic's mail reaches this contact, whatever is chosen below.
        </p>
      )}
      <Alert message={actionError ?? error} />
      {data && data.data.length === 0 && (
        <p>
          No topics yet. A topic is a kind of mail (a newsletter, product news) a contact can leave without leaving the
          rest: <a href="#/topics">create one</a>.
        </p>
      )}
      {data && data.data.length > 0 && (
        <table class="list stack">
          <thead>
            <tr>
              <th scope="col">Topic</th>
              <th scope="col">Subscription</th>
              <th scope="col">
                <span class="visually-hidden">Change</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.data.map((t) => (
              <tr key={t.id}>
                <td data-label="Topic">{t.name}</td>
                <td data-label="Subscription">
                  <span class={`status status-${t.subscription === "opt_in" ? "subscribed" : "unsubscribed"}`}>
                    {t.subscription === "opt_in" ? "Subscribed" : "Unsubscribed"}
                  </span>
                </td>
                <td data-label="Change">
                  {t.subscription === "opt_in" ? (
                    <Guarded why={why} label={`Unsubscribe from ${t.name}`} onClick={() => choose(t, "opt_out")}>
                      Unsubscribe
                    </Guarded>
                  ) : (
                    <Guarded why={why} label={`Subscribe to ${t.name}`} onClick={() => choose(t, "opt_in")}>
                      Subscribe
                    </Guarded>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

interface SentEmail {
  id: string;
  subject: string;
  status: string;
  created_at: string;
}

function Messages({ email }: { email: string }) {
  const whyNot = useWhyNot("emails:read", "read the messages sent");
  const readsEmails = !whyNot;
  const { data, error } = usePolled(
    async () => (readsEmails ? api.get<Page<SentEmail>>(`/v1/emails${query({ limit: 10, to: email })}`) : null),
    [email],
  );
  return (
    <div class="card" role="region" aria-labelledby="contact-messages">
      <h2 id="contact-messages">Messages</h2>
      {whyNot && <p>{whyNot}</p>}
      <Alert message={error} />
      {data && data.data.length === 0 && <p>Nothing has been sent to {email} yet.</p>}
      {data && data.data.length > 0 && (
        <>
          <table class="list stack">
            <thead>
              <tr>
                <th scope="col">Subject</th>
                <th scope="col">Status</th>
                <th scope="col">Sent</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((m) => (
                <tr key={m.id}>
                  <td data-label="Subject">
                    <a href={`#/emails/${encodeURIComponent(m.id)}`}>{m.subject || "(no subject)"}</a>
                  </td>
                  <td data-label="Status">
                    <span class={`status status-${m.status}`}>{m.status}</span>
                  </td>
                  <td data-label="Sent">{when(m.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.has_more && (
            <p class="hint">
              The ten newest: on the <a href="#/emails">Emails</a> screen, filter To by {email} for them all.
            </p>
          )}
        </>
      )}
    </div>
  );
}
