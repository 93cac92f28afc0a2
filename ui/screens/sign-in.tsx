/**
 * Signing in (docs/teams.md#sessions): email and password (and the code of two-step sign-in when the server asks
 * for it), an API key, single sign-on, and "Forgot your password?". Invariant: the reason a single sign-on was
 * refused is shown only from the server's own cookie, never from text in the URL.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { Alert } from "../alert.tsx";
import { api, ApiError, fetchAccess, session, signInWithPassword, singleSignOn, type Access } from "../api.ts";
import { Field, useFocusOnArrival, useSubmit } from "../field.tsx";

/** Whether this server offers single sign-on (null until it has said). */
export function useSingleSignOn() {
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

export function SignIn({ onSignedIn }: { onSignedIn: (access: Access) => void }) {
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
          No account yet? Open the invitation link you were sent, or ask an owner or admin of your organisation to
          invite you. Setting up a new server: its operator uses the one-time setup link it prints at start.
        </p>
      </form>
    </main>
  );
}
