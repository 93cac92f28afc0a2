/**
 * The admin UI's root: sign-in (email and password, or an API key), the pages one-time links open (`/setup`,
 * `/password`), the navigation between the screens the caller may open, and hash routing (`#/emails/<id>`) so the
 * back button and reloads keep the place. Invariant: nothing is shown but sign-in until the server accepts the
 * caller.
 */
import { render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { AccessContext } from "./access.ts";
import {
  api,
  AREAS,
  fetchAccess,
  session,
  signedIn,
  ApiError,
  signInWithPassword,
  singleSignOn,
  signOut,
  type Access,
  type AreaId,
  type Me,
} from "./api.ts";
import { Field, useFocusOnArrival, useSubmit } from "./field.tsx";
import { AccountScreen } from "./screens/account.tsx";
import { AiScreen } from "./screens/ai.tsx";
import { AuditScreen } from "./screens/audit.tsx";
import { DeliverabilityScreen } from "./screens/deliverability.tsx";
import { DomainsScreen } from "./screens/domains.tsx";
import { EmailDetail, EmailsScreen } from "./screens/emails.tsx";
import { InboundScreen } from "./screens/inbound.tsx";
import { KeysScreen } from "./screens/keys.tsx";
import { MembersScreen } from "./screens/members.tsx";
import { OrganizationScreen } from "./screens/organization.tsx";
import { OverviewScreen } from "./screens/overview.tsx";
import { QueueScreen } from "./screens/queue.tsx";
import { SuppressionsScreen } from "./screens/suppressions.tsx";
import { TemplatesScreen } from "./screens/templates.tsx";
import { WebhooksScreen } from "./screens/webhooks.tsx";
import { Alert } from "./alert.tsx";

function useHash(): string[] {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
}

/** Whether this server offers single sign-on (null until it has said). */
function useSingleSignOn() {
  const [sso, setSso] = useState<{ enabled: boolean; required: boolean } | null>(null);
  useEffect(() => {
    singleSignOn()
      .then(setSso)
      .catch(() => setSso({ enabled: false, required: false }));
  }, []);
  return sso;
}

/**
 * Why a sign-in with SSO came back refused: the callback leaves it in the `mailroom_sso_error` cookie, which only the
 * server sets, and marks the URL with `?sso_error`; read once, then both removed. Text in the URL is never shown:
 * anyone can send a link to this page with words of their choosing in it.
 */
function takeSsoError(): string | null {
  if (!new URLSearchParams(location.search).has("sso_error")) return null;
  history.replaceState(null, "", "/");
  const cookie = document.cookie.split("; ").find((part) => part.startsWith("mailroom_sso_error="));
  // biome-ignore lint/suspicious/noDocumentCookie: one fixed string; the Cookie Store API is missing from Firefox.
  document.cookie = "mailroom_sso_error=; Path=/; Max-Age=0; SameSite=Lax";
  if (!cookie) return null;
  try {
    return decodeURIComponent(cookie.slice("mailroom_sso_error=".length));
  } catch {
    return null;
  }
}

/** "Forgot your password?": a link by email, when an organisation of the person's can send mail. */
function ForgottenPassword({ email: typed, onBack }: { email: string; onBack: () => void }) {
  const [email, setEmail] = useState(typed);
  const [answer, setAnswer] = useState<string | null>(null);
  const field = useFocusOnArrival();
  const { submit, error, busy } = useSubmit(async () => {
    setAnswer((await api.post<{ message: string }>("/v1/password/reset", { email: email.trim() })).message);
  });
  return (
    <main class="signin">
      <h1>Set a new password</h1>
      <form onSubmit={submit} aria-label="Forgotten password">
        <Field
          id="reset-email"
          label="Email"
          type="email"
          autocomplete="username"
          value={email}
          onInput={setEmail}
          inputRef={field}
        />
        <button type="submit" disabled={busy}>
          Email me a link
        </button>
        <Alert message={error} />
        {answer && (
          <p role="status">
            {answer} No email? An owner, or whoever runs the server (<code>mailroom users reset-password</code>), can
            make you a link.
          </p>
        )}
        <button type="button" class="link" onClick={onBack}>
          Back to sign-in
        </button>
      </form>
    </main>
  );
}

function SignIn({ onSignedIn }: { onSignedIn: (access: Access) => void }) {
  const [withKey, setWithKey] = useState(false);
  const [forgot, setForgot] = useState(false);
  const [key, setKey] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  // Asked for only once the server says the person has TOTP on.
  const [code, setCode] = useState<string | null>(null);
  const sso = useSingleSignOn();
  const [ssoError] = useState(takeSsoError);
  // The one thing to do on this screen: the first field takes the keyboard at once (the code, once it is asked for).
  const field = useRef<HTMLInputElement>(null);
  const codeField = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), [withKey, forgot]);
  useEffect(() => codeField.current?.focus(), [code === null]);
  const { submit, error, busy } = useSubmit(async () => {
    if (withKey) {
      session.signIn(key.trim());
      try {
        onSignedIn(await fetchAccess());
      } catch (err) {
        session.signOut();
        throw err;
      }
    } else {
      try {
        await signInWithPassword(email.trim(), password, code?.trim());
      } catch (err) {
        if (err instanceof ApiError && code === null && err.details[0]?.path === "totp") {
          setCode("");
          return;
        }
        throw err;
      }
      onSignedIn(await fetchAccess());
    }
  });
  if (forgot) return <ForgottenPassword email={email} onBack={() => setForgot(false)} />;
  return (
    <main class="signin">
      <h1>Mailroom</h1>
      <form onSubmit={submit} aria-label="Sign in">
        {withKey ? (
          <>
            <Field
              id="api-key"
              label="API key"
              type="password"
              autocomplete="off"
              value={key}
              onInput={setKey}
              inputRef={field}
            />
            <p class="hint">Kept for this browser tab only; closing it or signing out forgets it.</p>
          </>
        ) : (
          <>
            <Field
              id="email"
              label="Email"
              type="email"
              autocomplete="username"
              value={email}
              onInput={setEmail}
              inputRef={field}
            />
            <Field
              id="password"
              label="Password"
              type="password"
              autocomplete="current-password"
              value={password}
              onInput={setPassword}
            />
            {code !== null && (
              <>
                <Field
                  id="totp"
                  label="Code from your authenticator app, or a recovery code"
                  autocomplete="one-time-code"
                  value={code}
                  onInput={setCode}
                  inputRef={codeField}
                />
                <p class="hint">Your account asks for a second step: open the app you set it up with.</p>
              </>
            )}
          </>
        )}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <Alert message={error ?? ssoError} />
        {sso?.enabled && !withKey && (
          <a class="button secondary" href="/v1/sso/start">
            Sign in with SSO
          </a>
        )}
        {sso?.required && !withKey && (
          <p class="hint">This server signs people in with SSO; passwords are for its administrators.</p>
        )}
        {!withKey && (
          <button type="button" class="link" onClick={() => setForgot(true)}>
            Forgot your password?
          </button>
        )}
        <button type="button" class="link" onClick={() => setWithKey(!withKey)}>
          {withKey ? "Use email and password instead" : "Use an API key instead"}
        </button>
        <p class="hint">
          New here? The server prints a one-time setup link at each start until the first person has used it.
        </p>
      </form>
    </main>
  );
}

/** The first start's setup link (`/setup#<token>`): the first person, who owns the first organisation. */
function Setup({ onSignedIn }: { onSignedIn: (access: Access) => void }) {
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
function SetPassword() {
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

/**
 * An invitation's link (`/invite#<token>`): a new person sets a name and password; someone with an account signs in
 * as it first, then joins with it — the invitation never asks for, or sets, an existing account's password.
 */
function AcceptInvitation({ onSignedIn }: { onSignedIn: (access: Access) => void }) {
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
        <h1>Join Mailroom</h1>
        <p class="hint">
          You are signed in as <strong>{person}</strong>. Join the organisation that invited you with this account.
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
      <h1>Join Mailroom</h1>
      <p class="hint">New here: give your name and choose a password. Already have an account here: sign in first.</p>
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

/** Which of a person's organisations the screens show; shown only to someone who belongs to more than one. */
function OrganizationSwitcher({ person }: { person: Me }) {
  if (person.organizations.length < 2) return null;
  const current = session.organization() ?? person.organizations[0]!.id;
  return (
    <label class="switcher">
      <span class="visually-hidden">Organisation</span>
      <select
        value={current}
        onChange={(e) => {
          session.chooseOrganization(e.currentTarget.value);
          location.hash = "";
          location.reload();
        }}
      >
        {person.organizations.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Said wherever a test key is signed in, since it changes what every screen does: what a test key can do, and how to
 * get a key that can do more (the first-run key is a test key, and a test key makes test keys only).
 */
function TestKeyBanner() {
  return (
    <div class="banner" role="note" aria-label="Test key">
      <p class="banner-line">
        <strong>Signed in with a test key.</strong> Mail it sends is captured here and never delivered, it sees test
        mail only, and the keys it creates are test keys.
      </p>
      <p class="banner-line">
        For a live key, run where the server runs: <code>mailroom keys create --name admin --scope full_access</code>{" "}
        (from a clone: <code>npx mailroom keys create …</code>), then sign in with it.
      </p>
    </div>
  );
}

function App() {
  const [access, setAccess] = useState<Access | null>(null);
  const page = location.pathname;
  const [checking, setChecking] = useState(page === "/");
  const route = useHash();
  const [menuOpen, setMenuOpen] = useState(false);

  // A reload keeps the tab's key or the browser's session: ask the server again rather than trusting either.
  useEffect(() => {
    if (page !== "/") return;
    (async () => (session.key() || (await signedIn()) ? setAccess(await fetchAccess()) : undefined))()
      .catch(() => session.signOut())
      .finally(() => setChecking(false));
  }, []);

  if (page === "/setup" && !access) return <Setup onSignedIn={setAccess} />;
  if (page === "/password") return <SetPassword />;
  if (page === "/invite" && !access) return <AcceptInvitation onSignedIn={setAccess} />;
  if (checking) return <p class="loading">Checking the sign-in…</p>;
  if (!access) return <SignIn onSignedIn={setAccess} />;

  const leave = async () => {
    await signOut();
    setAccess(null);
    location.hash = "";
  };
  const visible = AREAS.filter((a) => access.scopes.has(a.scope));
  // Your account is no area of the organisation: it is the person's own, reached from the header.
  const onAccount = route[0] === "account" && access.person !== null;
  const current: AreaId | undefined = onAccount
    ? undefined
    : (visible.find((a) => a.id === route[0])?.id ?? visible[0]?.id);

  return (
    <AccessContext.Provider value={access}>
      <header class="top">
        <span class="brand">Mailroom{access.mode === "test" && <span class="badge">test key</span>}</span>
        {/* Shown below 600 px only, where the sections would wrap into rows above every screen. */}
        <button
          type="button"
          class="menu"
          aria-expanded={menuOpen}
          aria-controls="sections"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          {menuOpen ? "Close menu" : `Menu · ${visible.find((a) => a.id === current)?.label ?? "sections"}`}
        </button>
        <nav id="sections" aria-label="Sections" class={menuOpen ? "open" : undefined}>
          {visible.map((a) => (
            <a
              key={a.id}
              href={`#/${a.id}`}
              aria-current={a.id === current ? "page" : undefined}
              onClick={() => setMenuOpen(false)}
            >
              {a.label}
            </a>
          ))}
        </nav>
        {access.person && <OrganizationSwitcher person={access.person} />}
        {access.person && (
          <a href="#/account" class="account" aria-current={onAccount ? "page" : undefined}>
            Account
          </a>
        )}
        <button type="button" class="link" onClick={() => void leave()}>
          Sign out
        </button>
      </header>
      <main id="content">
        {access.mode === "test" && <TestKeyBanner />}
        {onAccount && <AccountScreen />}
        {!current && !onAccount && (
          <p>This key may only send. Sign in with a key that can read (for example full_access) to use the admin.</p>
        )}
        {current === "overview" && <OverviewScreen />}
        {current === "emails" && (route[1] ? <EmailDetail id={route[1]} /> : <EmailsScreen />)}
        {current === "templates" && <TemplatesScreen id={route[1]} />}
        {current === "inbound" && <InboundScreen id={route[1]} />}
        {current === "ai" && <AiScreen />}
        {current === "keys" && <KeysScreen />}
        {current === "members" && <MembersScreen />}
        {current === "organization" && <OrganizationScreen />}
        {current === "audit" && <AuditScreen />}
        {current === "queue" && <QueueScreen />}
        {current === "deliverability" && <DeliverabilityScreen />}
        {current === "suppressions" && <SuppressionsScreen />}
        {current === "domains" && <DomainsScreen id={route[1]} />}
        {current === "webhooks" && <WebhooksScreen />}
      </main>
    </AccessContext.Provider>
  );
}

render(<App />, document.getElementById("app")!);
