/**
 * The pages one-time links open (docs/teams.md#invitations): the first start's setup link, a link that sets a
 * password, and an invitation. Invariant: an invitation never asks for, or sets, an existing account's password —
 * someone with an account signs in as it first, then joins.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { Alert } from "../alert.tsx";
import { api, fetchAccess, signOut, type Access } from "../api.ts";
import { Field, useFocusOnArrival, useSubmit } from "../field.tsx";
import { SignIn, useSingleSignOn } from "./sign-in.tsx";

/** The first start's setup link (`/setup#<token>`): the first person, who owns the first organisation. */
export function Setup({ onSignedIn }: { onSignedIn: (access: Access) => void }) {
  const token = location.hash.replace(/^#/, "");
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const field = useFocusOnArrival();
  const { submit, error, busy } = useSubmit(async () => {
    await api.post("/v1/setup", { token, email: email.trim(), name: name.trim(), password });
    history.replaceState(null, "", "/");
    onSignedIn(await fetchAccess());
  });
  return (
    <main class="signin">
      <h1>Set up Mailroom</h1>
      <p class="hint">You are the first person here: you will own the organisation and may invite the others.</p>
      <form onSubmit={submit} aria-label="Set up">
        <Field id="setup-name" label="Your name" autocomplete="name" value={name} onInput={setName} inputRef={field} />
        <Field id="setup-email" label="Email" type="email" autocomplete="username" value={email} onInput={setEmail} />
        <Field
          id="setup-password"
          label="Password (at least 12 characters)"
          type="password"
          autocomplete="new-password"
          minLength={12}
          value={password}
          onInput={setPassword}
        />
        <button type="submit" disabled={busy || !token}>
          Create my account
        </button>
        <Alert message={token ? error : "This page needs the link the server printed at its start, with its # part."} />
      </form>
    </main>
  );
}

/** A one-time link to set a password (`/password#<token>`: a new person's, or a reset). */
export function SetPassword() {
  const token = location.hash.replace(/^#/, "");
  const [password, setPassword] = useState("");
  const [done, setDone] = useState(false);
  const field = useFocusOnArrival();
  const { submit, error, busy } = useSubmit(async () => {
    await api.post("/v1/password", { token, password });
    setDone(true);
  });
  return (
    <main class="signin">
      <h1>Set your password</h1>
      {done ? (
        <p role="status">
          Your password is set. <a href="/">Sign in</a>.
        </p>
      ) : (
        <form onSubmit={submit} aria-label="Set your password">
          <Field
            id="new-password"
            label="New password (at least 12 characters)"
            type="password"
            autocomplete="new-password"
            minLength={12}
            value={password}
            onInput={setPassword}
            inputRef={field}
          />
          <button type="submit" disabled={busy || !token}>
            Set password
          </button>
          <Alert message={token ? error : "This page needs the whole link you were given, with its # part."} />
        </form>
      )}
    </main>
  );
}

interface InvitationPreview {
  email: string;
  role: string;
  organization: { name: string };
  expires_at: string;
}

const ROLE_MEANS: Record<string, string> = {
  owner: "everything, owners included",
  admin: "everything but owners",
  developer: "mail, domains, templates, webhooks and keys",
  viewer: "reads, changes nothing, sees no message content",
};

/** The invitation in one sentence: the organisation, the role and what it allows, the address it is for. */
function InvitationSummary({ preview, error }: { preview: InvitationPreview | null; error: string | null }) {
  if (error) return <Alert message={error} />;
  if (!preview) return <p class="loading">Reading the invitation…</p>;
  return (
    <p class="invitation-summary" data-testid="invitation-summary">
      You are invited to join <strong>{preview.organization.name}</strong> as <strong>{preview.role}</strong> (
      {ROLE_MEANS[preview.role] ?? preview.role}). The invitation is for <strong>{preview.email}</strong>.
    </p>
  );
}

/**
 * An invitation's link (`/invite#<token>`): a new person sets a name and password; someone with an account signs in
 * as it first, then joins with it — the invitation never asks for, or sets, an existing account's password.
 */
export function AcceptInvitation({ onSignedIn }: { onSignedIn: (access: Access) => void }) {
  const token = location.hash.replace(/^#/, "");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  // The person this browser is signed in as: undefined while asking, null when nobody.
  const [person, setPerson] = useState<string | null | undefined>(undefined);
  const [signingIn, setSigningIn] = useState(false);
  // Each of this page's steps arrives with the keyboard on its one thing to do: the name, or the Join button.
  const field = useRef<HTMLInputElement>(null);
  const joinButton = useRef<HTMLButtonElement>(null);
  useEffect(() => void (person ? joinButton.current : field.current)?.focus(), [person, signingIn]);
  const sso = useSingleSignOn();
  // Who invites whom, as what: read once, so the page names them before anyone types (issue 49 item 4).
  const [preview, setPreview] = useState<InvitationPreview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  useEffect(() => {
    if (!token) return;
    api
      .post<InvitationPreview>("/v1/invitations/preview", { token })
      .then(setPreview)
      .catch((error: Error) => setPreviewError(error.message));
  }, [token]);
  useEffect(() => {
    api
      .get<{ user: { email: string } | null }>("/v1/session")
      .then((answer) => setPerson(answer.user?.email ?? null))
      .catch(() => setPerson(null));
  }, []);
  const join = async (body: Record<string, string>) => {
    await api.post("/v1/invitations/accept", { token, ...body });
    history.replaceState(null, "", "/");
    onSignedIn(await fetchAccess());
  };
  const asNew = useSubmit(() => join({ ...(name.trim() && { name: name.trim() }), password }));
  const asSignedIn = useSubmit(() => join({}));
  const missing = "This page needs the whole invitation link, with its # part.";

  if (signingIn)
    return (
      <SignIn
        onSignedIn={(access) => {
          setPerson(access.person?.user.email ?? null);
          setSigningIn(false);
        }}
      />
    );
  if (person === undefined) return <p class="loading">Checking the sign-in…</p>;
  if (person)
    return (
      <main class="signin">
        <h1>Join {preview?.organization.name ?? "Mailroom"}</h1>
        <InvitationSummary preview={preview} error={previewError} />
        <p class="hint">
          You are signed in as <strong>{person}</strong>.{" "}
          {preview && preview.email !== person
            ? `This invitation is for ${preview.email}: sign out, then sign in as that account or join as a new person.`
            : "Join with this account."}
        </p>
        <form onSubmit={asSignedIn.submit} aria-label="Join">
          <button type="submit" ref={joinButton} disabled={asSignedIn.busy || !token}>
            Join as {person}
          </button>
          <button
            type="button"
            class="secondary"
            onClick={async () => {
              await signOut();
              setPerson(null);
            }}
          >
            Sign out, to join with another account
          </button>
          <Alert message={token ? asSignedIn.error : missing} />
        </form>
      </main>
    );
  return (
    <main class="signin">
      <h1>Join {preview?.organization.name ?? "Mailroom"}</h1>
      <InvitationSummary preview={preview} error={previewError} />
      <p class="hint">
        New to this Mailroom: give your name and choose a password. Already have an account here: sign in first.
      </p>
      <form onSubmit={asNew.submit} aria-label="Join">
        <label for="join-name">Your name</label>
        <input
          id="join-name"
          ref={field}
          autocomplete="name"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <Field
          id="join-password"
          label="Password (at least 12 characters)"
          type="password"
          autocomplete="new-password"
          minLength={12}
          value={password}
          onInput={setPassword}
        />
        <button type="submit" disabled={asNew.busy || !token}>
          Join
        </button>
        <Alert message={token ? asNew.error : missing} />
        <button type="button" class="secondary" onClick={() => setSigningIn(true)}>
          I have an account: sign in first
        </button>
        {sso?.enabled && token && (
          <a class="button secondary" href={`/v1/sso/start?invitation=${encodeURIComponent(token)}`}>
            Join with SSO
          </a>
        )}
      </form>
    </main>
  );
}
