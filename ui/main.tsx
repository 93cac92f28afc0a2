/**
 * The admin UI's root: sign-in, the navigation between the screens the key may open, and hash routing
 * (`#/emails/<id>`) so the back button and reloads keep the place. Invariant: nothing is shown but sign-in until a
 * key the server accepts is in the session.
 */
import { render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { AccessContext } from "./access.ts";
import { AREAS, fetchAccess, session, type Access, type AreaId } from "./api.ts";
import { describe } from "./hooks.ts";
import { AiScreen } from "./screens/ai.tsx";
import { DomainsScreen } from "./screens/domains.tsx";
import { EmailDetail, EmailsScreen } from "./screens/emails.tsx";
import { InboundScreen } from "./screens/inbound.tsx";
import { KeysScreen } from "./screens/keys.tsx";
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

function SignIn({ onSignedIn }: { onSignedIn: (access: Access) => void }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The one thing to do on this screen: the field takes the keyboard at once.
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    session.signIn(key.trim());
    try {
      onSignedIn(await fetchAccess());
    } catch (err) {
      session.signOut();
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin">
      <h1>Mailroom</h1>
      <form onSubmit={submit}>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          ref={field}
          type="password"
          autocomplete="off"
          required
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
        <p class="hint">Kept for this browser tab only; closing it or signing out forgets it.</p>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <Alert message={error} />
      </form>
    </main>
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
  const [checking, setChecking] = useState(session.key() !== null);
  const route = useHash();
  const [menuOpen, setMenuOpen] = useState(false);

  // A reload keeps the tab's key: check it again rather than trusting it.
  useEffect(() => {
    if (!session.key()) return;
    fetchAccess()
      .then(setAccess)
      .catch(() => session.signOut())
      .finally(() => setChecking(false));
  }, []);

  if (checking) return <p class="loading">Checking the key…</p>;
  if (!access) return <SignIn onSignedIn={setAccess} />;

  const signOut = () => {
    session.signOut();
    setAccess(null);
    location.hash = "";
  };
  const visible = AREAS.filter((a) => access.scopes.has(a.scope));
  const current: AreaId | undefined = visible.find((a) => a.id === route[0])?.id ?? visible[0]?.id;

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
        <button type="button" class="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="content">
        {access.mode === "test" && <TestKeyBanner />}
        {!current && (
          <p>This key may only send. Sign in with a key that can read (for example full_access) to use the admin.</p>
        )}
        {current === "overview" && <OverviewScreen />}
        {current === "emails" && (route[1] ? <EmailDetail id={route[1]} /> : <EmailsScreen />)}
        {current === "templates" && <TemplatesScreen id={route[1]} />}
        {current === "inbound" && <InboundScreen id={route[1]} />}
        {current === "ai" && <AiScreen />}
        {current === "keys" && <KeysScreen />}
        {current === "organization" && <OrganizationScreen />}
        {current === "queue" && <QueueScreen />}
        {current === "suppressions" && <SuppressionsScreen />}
        {current === "domains" && <DomainsScreen />}
        {current === "webhooks" && <WebhooksScreen />}
      </main>
    </AccessContext.Provider>
  );
}

render(<App />, document.getElementById("app")!);
