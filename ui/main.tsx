/**
 * The admin UI's root: which page a path opens (sign-in, screens/sign-in.tsx; the pages one-time links open,
 * screens/one-time-links.tsx), the navigation between the screens the caller may open, and hash routing
 * (`#/emails/<id>`) so the back button and reloads keep the place. Invariant: nothing is shown but sign-in until the
 * server accepts the caller.
 */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { AccessContext } from "./access.ts";
import { fetchAccess, session, signedIn, signOut, type Access, type AreaId, type Me } from "./api.ts";
import { visibleNavigation } from "./navigation.ts";
import { AccountScreen } from "./screens/account.tsx";
import { AcceptInvitation, SetPassword, Setup } from "./screens/one-time-links.tsx";
import { SignIn } from "./screens/sign-in.tsx";
import { AiScreen } from "./screens/ai.tsx";
import { AuditScreen } from "./screens/audit.tsx";
import { BroadcastsScreen } from "./screens/broadcasts.tsx";
import { ContactsScreen } from "./screens/contacts.tsx";
import { DeliverabilityScreen } from "./screens/deliverability.tsx";
import { DomainsScreen } from "./screens/domains.tsx";
import { EmailDetail, EmailsScreen } from "./screens/emails.tsx";
import { ImportsScreen } from "./screens/imports.tsx";
import { InboundScreen } from "./screens/inbound.tsx";
import { InboundRoutesScreen } from "./screens/inbound-routes.tsx";
import { KeysScreen } from "./screens/keys.tsx";
import { LogsScreen } from "./screens/logs.tsx";
import { MembersScreen } from "./screens/members.tsx";
import { OrganizationScreen } from "./screens/organization.tsx";
import { OverviewScreen } from "./screens/overview.tsx";
import { PropertiesScreen } from "./screens/properties.tsx";
import { QueueScreen } from "./screens/queue.tsx";
import { SegmentsScreen } from "./screens/segments.tsx";
import { SuppressionsScreen } from "./screens/suppressions.tsx";
import { TemplatesScreen } from "./screens/templates.tsx";
import { TopicsScreen } from "./screens/topics.tsx";
import { WebhooksScreen } from "./screens/webhooks.tsx";
import { Navigation } from "./sidebar.tsx";

function useHash(): string[] {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
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

/**
 * Said after a reload when the person was removed from the organisation the tab worked in: what happened, where the
 * screens are now, and the other organisations to choose from — or, with none left, what to do next.
 */
function RemovedNotice({ name, person, onSignOut }: { name: string; person: Me; onSignOut: () => void }) {
  const [now, ...others] = person.organizations;
  return (
    <div class="banner" role="region" aria-label="No longer a member">
      <p class="banner-line">
        <strong>You are no longer a member of {name}.</strong> An owner or admin removed you, so its screens are closed
        to you{now ? "" : " and you belong to no other organisation here"}.
      </p>
      {now ? (
        <>
          <p class="banner-line">
            You are now working in <strong>{now.name}</strong> ({now.role}).
          </p>
          {others.length > 0 && (
            <p class="banner-line actions">
              Your other organisations:
              {others.map((o) => (
                <button
                  key={o.id}
                  type="button"
                  onClick={() => {
                    session.chooseOrganization(o.id);
                    location.hash = "";
                    location.reload();
                  }}
                >
                  Open {o.name}
                </button>
              ))}
            </p>
          )}
        </>
      ) : (
        <p class="banner-line actions">
          Ask an owner of {name} to invite you again, or
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        </p>
      )}
    </div>
  );
}

/** What a signed-in person without a single organisation sees: why the screens are empty, and how to get in. */
function NoOrganization({ onSignOut }: { onSignOut: () => void }) {
  return (
    <div class="card" role="region" aria-label="No organisation">
      <h1>You are not a member of any organisation</h1>
      <p>Ask an owner or admin of the organisation you work with to invite you; their invitation link brings you in.</p>
      <p>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
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
  const groups = visibleNavigation((scope) => access.scopes.has(scope));
  const visible = groups.flatMap((g) => g.areas);
  // Your account is no area of the organisation: it is the person's own, reached from the header.
  const onAccount = route[0] === "account" && access.person !== null;
  const current: AreaId | undefined = onAccount
    ? undefined
    : (visible.find((a) => a.id === route[0])?.id ?? visible[0]?.id);

  return (
    <AccessContext.Provider value={access}>
      <header class="top">
        <span class="brand">Mailroom{access.mode === "test" && <span class="badge">test key</span>}</span>
        {access.person && <OrganizationSwitcher person={access.person} />}
        <div class="who">
          {access.person && (
            <a href="#/account" class="account" aria-current={onAccount ? "page" : undefined}>
              Account
            </a>
          )}
          <button type="button" class="link" onClick={() => void leave()}>
            Sign out
          </button>
        </div>
        {/* Shown below 900 px only, where the sidebar would take the screen from the content; last in the header so
            the next Tab after opening it enters the sections. */}
        {visible.length > 0 && (
          <button
            type="button"
            class="menu"
            aria-expanded={menuOpen}
            aria-controls="sections"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            {menuOpen ? "Close" : "Menu"}
          </button>
        )}
      </header>
      <div class="shell">
        {visible.length > 0 && (
          <Navigation groups={groups} current={current} open={menuOpen} onChoose={() => setMenuOpen(false)} />
        )}
        <main id="content">
          {access.mode === "test" && <TestKeyBanner />}
          {access.removedFrom && access.person && (
            <RemovedNotice name={access.removedFrom} person={access.person} onSignOut={() => void leave()} />
          )}
          {onAccount && <AccountScreen />}
          {!current && !onAccount && access.person?.organizations.length === 0 && !access.removedFrom && (
            <NoOrganization onSignOut={() => void leave()} />
          )}
          {!current && !onAccount && !access.person && (
            <p>This key may only send. Sign in with a key that can read (for example full_access) to use the admin.</p>
          )}
          {current === "overview" && <OverviewScreen />}
          {current === "emails" && (route[1] ? <EmailDetail id={route[1]} /> : <EmailsScreen />)}
          {current === "broadcasts" && <BroadcastsScreen id={route[1]} />}
          {current === "templates" && <TemplatesScreen id={route[1]} />}
          {current === "inbound" && <InboundScreen id={route[1]} />}
          {current === "routes" && <InboundRoutesScreen />}
          {current === "ai" && <AiScreen />}
          {current === "keys" && <KeysScreen />}
          {current === "members" && <MembersScreen />}
          {current === "organization" && <OrganizationScreen />}
          {current === "audit" && <AuditScreen />}
          {current === "queue" && <QueueScreen />}
          {current === "deliverability" && <DeliverabilityScreen />}
          {current === "suppressions" && <SuppressionsScreen />}
          {current === "logs" && <LogsScreen id={route[1]} />}
          {current === "domains" && <DomainsScreen id={route[1]} />}
          {current === "webhooks" && <WebhooksScreen />}
          {current === "contacts" && <ContactsScreen id={route[1]} />}
          {current === "segments" && <SegmentsScreen id={route[1]} />}
          {current === "topics" && <TopicsScreen />}
          {current === "properties" && <PropertiesScreen />}
          {current === "imports" && <ImportsScreen />}
        </main>
      </div>
    </AccessContext.Provider>
  );
}

render(<App />, document.getElementById("app")!);
