/**
 * Members (docs/teams.md): who belongs to the organisation with which role, invitations by one-time link, role changes
 * and removals, each removal confirmed in words that name the person. Invariant: what is shown is the server's
 * answer, read again after every change; an invitation's link is held only in this screen's state and shown once.
 */
import { useContext, useState } from "preact/hooks";
import { AccessContext, useWhyNot } from "../access.ts";
import { Guarded } from "../guarded.tsx";
import { Alert } from "../alert.tsx";
import { CreateForm, RecordTable } from "../collection.tsx";
import { api } from "../api.ts";
import { ShownOnce } from "../copy.tsx";
import { when } from "../format.ts";
import { useAction, usePolled } from "../hooks.ts";
import { PageHeader, StartAction } from "../page-header.tsx";

const ROLES = ["owner", "admin", "developer", "viewer"] as const;
const ROLE_WORDS: Record<string, string> = {
  owner: "Owner — everything, owners included",
  admin: "Admin — everything but owners",
  developer: "Developer — mail, domains, templates, webhooks, keys",
  viewer: "Viewer — reads, changes nothing",
};

interface Member {
  id: string;
  email: string;
  name: string;
  role: string;
  created_at: string;
}
interface Invitation {
  id: string;
  email: string;
  role: string;
  expires_at: string;
}

export function MembersScreen() {
  const { data, error, reload } = usePolled(
    () => api.get<{ data: Member[]; invitations: Invitation[] }>("/v1/members"),
    [],
  );
  const whyNotWrite = useWhyNot("members:write", "invite, change or remove members");
  const canWrite = !whyNotWrite;
  const me = useContext(AccessContext).person?.user.id;
  const { act, actionError } = useAction(reload);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState("developer");
  const [invited, setInvited] = useState<{ email: string; url: string; note: string | null } | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  // A role change waits for its confirmation, and says it was saved (issue 49 item 10).
  const [changing, setChanging] = useState<{ id: string; email: string; role: string } | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const invite = () => {
    void act(async () => {
      const invitation = await api.post<{ email: string; url: string; note: string | null }>(
        "/v1/members/invitations",
        { email: email.trim(), role },
      );
      setInvited({ email: invitation.email, url: invitation.url, note: invitation.note });
      setEmail("");
    });
  };

  return (
    <section aria-labelledby="members-title">
      <PageHeader
        id="members-title"
        title="Members"
        description="The people in this organisation, their roles, and pending invitations."
      >
        <StartAction label="Invite a member" field="invite-email" reason={whyNotWrite} />
      </PageHeader>
      {canWrite && (
        <CreateForm
          title="Invite someone"
          submit="Create an invitation link"
          why={whyNotWrite}
          onCreate={invite}
          inline={false}
          hint="The link works once, for 7 days. It is mailed to them from a verified domain of the organisation, and shown to you once."
        >
          <label>
            Email
            <input
              id="invite-email"
              type="email"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </label>
          <label>
            Role
            <select value={role} onChange={(e) => setRole(e.currentTarget.value)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_WORDS[r]}
                </option>
              ))}
            </select>
          </label>
        </CreateForm>
      )}
      {invited && (
        <ShownOnce
          secret={invited.url}
          copyLabel="Copy the invitation link"
          testId="invitation-url"
          onDone={() => setInvited(null)}
        >
          Invitation for <strong>{invited.email}</strong> made. {invited.note ?? "It is on its way to them by email."}
        </ShownOnce>
      )}
      {changing && (
        <p class="confirm" role="group" aria-label="Confirm the role change">
          Make {changing.email} {changing.role === "admin" || changing.role === "owner" ? "an" : "a"} {changing.role}?{" "}
          <button
            type="button"
            class="primary"
            onClick={() =>
              act(async () => {
                await api.patch(`/v1/members/${changing.id}`, { role: changing.role });
                setSaved(`Saved: ${changing.email} is now ${changing.role}.`);
                setChanging(null);
              })
            }
          >
            Change the role
          </button>{" "}
          <button type="button" onClick={() => setChanging(null)}>
            Keep
          </button>
        </p>
      )}
      {saved && (
        <p class="saved" role="status">
          {saved}
        </p>
      )}
      <Alert message={actionError ?? error} />
      <RecordTable
        items={data?.data}
        columns={[
          { label: "Name", cell: (member) => `${member.name}${member.id === me ? " (you)" : ""}` },
          { label: "Email", cell: (member) => member.email },
          {
            label: "Role",
            cell: (member) =>
              canWrite ? (
                <select
                  aria-label={`Role of ${member.email}`}
                  value={changing?.id === member.id ? changing.role : member.role}
                  onChange={(e) => {
                    setSaved(null);
                    setChanging({ id: member.id, email: member.email, role: e.currentTarget.value });
                  }}
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              ) : (
                member.role
              ),
          },
          { label: "Since", cell: (member) => when(member.created_at) },
          {
            label: "Actions",
            hidden: true,
            cell: (member) =>
              removing === member.id ? (
                <>
                  <button
                    type="button"
                    class="danger"
                    onClick={() =>
                      act(async () => {
                        await api.del(`/v1/members/${member.id}`);
                        setRemoving(null);
                      })
                    }
                  >
                    Remove {member.email} from the organisation
                  </button>{" "}
                  <button type="button" onClick={() => setRemoving(null)}>
                    Keep
                  </button>
                </>
              ) : (
                <Guarded why={whyNotWrite} label={`Remove ${member.email}`} onClick={() => setRemoving(member.id)}>
                  Remove
                </Guarded>
              ),
          },
        ]}
      />
      {data && data.invitations.length > 0 && (
        <section aria-labelledby="invitations-title">
          <h2 id="invitations-title">Invitations not yet accepted</h2>
          <ul class="plain">
            {data.invitations.map((invitation) => (
              <li key={invitation.id}>
                {invitation.email} as {invitation.role}, until {when(invitation.expires_at)}{" "}
                <Guarded
                  why={whyNotWrite}
                  label={`Revoke the invitation of ${invitation.email}`}
                  onClick={() => act(() => api.del(`/v1/members/invitations/${invitation.id}`))}
                >
                  Revoke
                </Guarded>
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
