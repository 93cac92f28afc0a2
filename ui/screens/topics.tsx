/**
 * Topics (docs/contacts.md#topic-rules): the kinds of mail a contact can leave without leaving the rest — the list,
 * a form to create one (name, description, who receives it by default, whether the preference page shows it), and
 * an edit form per topic. Invariant: a topic's default subscription is chosen once, at create (the server refuses
 * a change), so the edit form shows it and offers no way to change it.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { useCan, useWhyNot } from "../access.ts";
import { api, query, type Page } from "../api.ts";
import { Alert } from "../alert.tsx";
import { CreateForm, RecordTable } from "../collection.tsx";
import { Empty } from "../empty.tsx";
import { Guarded } from "../guarded.tsx";
import { useAction } from "../hooks.ts";
import { PageHeader, StartAction } from "../page-header.tsx";
import { usePagedList } from "../paging.tsx";
import type { Topic } from "../../clients/node/src/generated.ts";

/** Who receives a topic's mail when they never chose, in words. */
const DEFAULTS = {
  opt_in: "Everyone, until they unsubscribe (opt-in by default)",
  opt_out: "Only contacts who subscribe (opt-out by default)",
} as const;
const VISIBILITY = {
  public: "Public: listed on the preference page",
  private: "Private: not listed on the preference page",
} as const;

function Visibility({ topic }: { topic: Pick<Topic, "visibility"> }) {
  return (
    <span class={`status status-${topic.visibility === "public" ? "enabled" : "private"}`}>
      {topic.visibility === "public" ? "Public" : "Private"}
    </span>
  );
}

/** Whether the preference page lists the topic: chosen at create and changed in the edit form alike. */
function VisibilityField({
  value,
  onChange,
}: {
  value: Topic["visibility"];
  onChange: (value: Topic["visibility"]) => void;
}) {
  return (
    <label>
      Visibility
      <select value={value} onChange={(e) => onChange(e.currentTarget.value as Topic["visibility"])}>
        <option value="public">{VISIBILITY.public}</option>
        <option value="private">{VISIBILITY.private}</option>
      </select>
    </label>
  );
}

function CreateTopic({ onCreated }: { onCreated: () => Promise<void> }) {
  const why = useWhyNot("contacts:write", "create topics");
  const blank = { name: "", description: "", default_subscription: "opt_in", visibility: "public" } as const;
  const [form, setForm] = useState<{
    name: string;
    description: string;
    default_subscription: Topic["default_subscription"];
    visibility: Topic["visibility"];
  }>(blank);
  const { act, actionError } = useAction(onCreated);
  const create = () =>
    void act(async () => {
      await api.post("/v1/topics", {
        ...form,
        name: form.name.trim(),
        description: form.description.trim() || null,
      });
      setForm(blank);
    });
  return (
    <CreateForm
      title="Create a topic"
      submit="Create topic"
      why={why}
      onCreate={create}
      error={actionError}
      hint="Who receives it by default cannot change once the topic exists."
    >
      <label>
        Name
        <input
          id="topic-name"
          required
          maxLength={255}
          value={form.name}
          onInput={(e) => setForm({ ...form, name: e.currentTarget.value })}
        />
      </label>
      <label>
        Description (optional)
        <input
          maxLength={1000}
          value={form.description}
          onInput={(e) => setForm({ ...form, description: e.currentTarget.value })}
        />
      </label>
      <label>
        Who receives it
        <select
          value={form.default_subscription}
          onChange={(e) =>
            setForm({ ...form, default_subscription: e.currentTarget.value as Topic["default_subscription"] })
          }
        >
          <option value="opt_in">{DEFAULTS.opt_in}</option>
          <option value="opt_out">{DEFAULTS.opt_out}</option>
        </select>
      </label>
      <VisibilityField value={form.visibility} onChange={(visibility) => setForm({ ...form, visibility })} />
    </CreateForm>
  );
}

function EditTopic({ topic, done }: { topic: Topic; done: (changed: boolean) => void }) {
  const [form, setForm] = useState({
    name: topic.name,
    description: topic.description ?? "",
    visibility: topic.visibility,
  });
  const [error, setError] = useState<string | null>(null);
  // The form opens where its Edit button was: the keyboard goes to its first field.
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const save = async (e: Event) => {
    e.preventDefault();
    try {
      await api.patch(`/v1/topics/${encodeURIComponent(topic.id)}`, {
        name: form.name.trim(),
        description: form.description.trim() || null,
        visibility: form.visibility,
      });
      done(true);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <form class="inline-form" onSubmit={save} aria-label={`Edit ${topic.name}`}>
      <label>
        Name
        <input
          required
          maxLength={255}
          value={form.name}
          ref={first}
          onInput={(e) => setForm({ ...form, name: e.currentTarget.value })}
        />
      </label>
      <label>
        Description
        <input
          maxLength={1000}
          value={form.description}
          onInput={(e) => setForm({ ...form, description: e.currentTarget.value })}
        />
      </label>
      <VisibilityField value={form.visibility} onChange={(visibility) => setForm({ ...form, visibility })} />
      <button type="submit">Save</button>
      <button type="button" onClick={() => done(false)}>
        Cancel
      </button>
      <Alert message={error} />
    </form>
  );
}

export function TopicsScreen() {
  const why = useWhyNot("contacts:write", "change topics");
  const canWrite = useCan("contacts:write");
  const { data, error, reload, pager } = usePagedList(
    (after) => api.get<Page<Topic>>(`/v1/topics${query({ limit: 20, after })}`),
    [],
  );
  const [editing, setEditing] = useState<string | null>(null);
  const { act, actionError } = useAction(reload);
  const remove = (topic: Topic) => {
    if (!confirm(`Delete the topic ${topic.name}? Every contact's choice of it goes too.`)) return;
    void act(() => api.del(`/v1/topics/${encodeURIComponent(topic.id)}`));
  };
  return (
    <section aria-labelledby="topics-title">
      <PageHeader
        id="topics-title"
        title="Topics"
        description="Kinds of mail a contact can leave without leaving the rest: a password reset still arrives."
      >
        <StartAction label="New topic" field="topic-name" reason={why} />
      </PageHeader>
      <CreateTopic onCreated={reload} />
      <Alert message={actionError ?? error} />
      <RecordTable
        items={data?.data}
        columns={[
          {
            label: "Topic",
            cell: (topic) => (
              <>
                <strong>{topic.name}</strong>
                {topic.description && <div class="hint">{topic.description}</div>}
                <div>
                  <code>{topic.id}</code>
                </div>
              </>
            ),
          },
          { label: "Who receives it", cell: (topic) => DEFAULTS[topic.default_subscription] },
          { label: "Visibility", cell: (topic) => <Visibility topic={topic} /> },
          {
            label: "Actions",
            hidden: true,
            cell: (topic) =>
              editing === topic.id ? (
                <EditTopic
                  topic={topic}
                  done={(changed) => {
                    setEditing(null);
                    if (changed) void reload();
                    // Back to the Edit button the form replaced, so the keyboard keeps its place.
                    setTimeout(() => document.querySelector<HTMLElement>(`#topic-${topic.id} button`)?.focus());
                  }}
                />
              ) : (
                <div class="actions" id={`topic-${topic.id}`}>
                  <Guarded why={why} label={`Edit ${topic.name}`} onClick={() => setEditing(topic.id)}>
                    Edit
                  </Guarded>
                  <Guarded why={why} label={`Delete ${topic.name}`} onClick={() => remove(topic)}>
                    Delete
                  </Guarded>
                </div>
              ),
          },
        ]}
        empty={
          <Empty title="No topics yet" first={canWrite ? { label: "Create a topic", field: "topic-name" } : undefined}>
            A topic is a kind of mail — a newsletter, product news — sent with its <code>topic_id</code>. Its
            unsubscribe link leaves that topic only, so someone who leaves the newsletter still gets their receipts and
            password resets.
          </Empty>
        }
      />
      {pager}
    </section>
  );
}
