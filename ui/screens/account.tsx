/**
 * Your account (docs/teams.md), for a person signed in: changing the password, and the second step at sign-in — an
 * authenticator app (TOTP) set up by scanning a QR code and confirming one code, with recovery codes shown once.
 * Invariant: a secret or recovery code the server sends is held only in this screen's state, and gone when the
 * person says they have kept it; every change asks for the current password, as the server does.
 */
import { useContext, useState } from "preact/hooks";
import { encode } from "uqr";
import { AccessContext } from "../access.ts";
import { Alert } from "../alert.tsx";
import { api, fetchAccess } from "../api.ts";
import { CopyButton } from "../copy.tsx";
import { Field, useFormAction } from "../field.tsx";
import { PageHeader } from "../page-header.tsx";

function PasswordForm() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const { run, error, done, busy } = useFormAction();
  const submit = (e: Event) =>
    run(e, async () => {
      await api.post("/v1/me/password", { current_password: current, password: next });
      setCurrent("");
      setNext("");
      return "Password changed. Your other sessions have ended; this one stays signed in.";
    });
  return (
    <form class="card" onSubmit={submit} aria-label="Change your password">
      <h2>Password</h2>
      <Field
        id="current-password"
        label="Current password"
        type="password"
        autocomplete="current-password"
        value={current}
        onInput={setCurrent}
      />
      <Field
        id="changed-password"
        label="New password (at least 12 characters)"
        type="password"
        autocomplete="new-password"
        minLength={12}
        value={next}
        onInput={setNext}
      />
      <button type="submit" disabled={busy}>
        Change password
      </button>
      <Alert message={error} />
      {done && <p role="status">{done}</p>}
    </form>
  );
}

/** A QR code drawn as one SVG path, a square per dark module, with the quiet zone the standard asks for. */
function QrCode({ text }: { text: string }) {
  const { data, size } = encode(text, { border: 4 });
  const squares = data.flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : ""))).join("");
  return (
    <div class="qr">
      <svg viewBox={`0 0 ${size} ${size}`} role="img" aria-label="QR code of the authenticator key">
        <path d={squares} fill="#000" />
      </svg>
    </div>
  );
}

function RecoveryCodes({ codes, onKept }: { codes: string[]; onKept: () => void }) {
  return (
    <div class="card notice" role="status" aria-label="Recovery codes">
      <p>
        Keep these recovery codes somewhere safe, apart from your phone. Each signs you in once if you lose the app.
        They are not shown again.
      </p>
      <ol class="recovery-codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <p>
        <CopyButton text={codes.join("\n")} label="Copy the recovery codes" />
      </p>
      <button type="button" onClick={onKept}>
        I have kept them
      </button>
    </div>
  );
}

function TwoStep({ enabled, onChanged }: { enabled: boolean; onChanged: () => Promise<void> }) {
  const [password, setPassword] = useState("");
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauth_url: string } | null>(null);
  const [code, setCode] = useState("");
  const [codes, setCodes] = useState<string[] | null>(null);
  const { run, error, busy } = useFormAction();

  const begin = (e: Event) =>
    run(e, async () => {
      setEnrolment(await api.post("/v1/me/totp", { password }));
      setPassword("");
      return null;
    });
  const confirm = (e: Event) =>
    run(e, async () => {
      const confirmed = await api.post<{ recovery_codes: string[] }>("/v1/me/totp/confirm", { code: code.trim() });
      setEnrolment(null);
      setCode("");
      setCodes(confirmed.recovery_codes);
      await onChanged();
      return null;
    });
  const turnOff = (e: Event) =>
    run(e, async () => {
      await api.post("/v1/me/totp/disable", { password });
      setPassword("");
      await onChanged();
      return null;
    });
  const replaceCodes = () =>
    run(new Event("submit"), async () => {
      setCodes(
        (await api.post<{ recovery_codes: string[] }>("/v1/me/totp/recovery-codes", { password })).recovery_codes,
      );
      setPassword("");
      return null;
    });

  const passwordField = (
    <Field
      id="totp-password"
      label="Your password"
      type="password"
      autocomplete="current-password"
      value={password}
      onInput={setPassword}
    />
  );

  return (
    <section class="card" aria-labelledby="two-step-title">
      <h2 id="two-step-title">Two-step sign-in</h2>
      {codes && <RecoveryCodes codes={codes} onKept={() => setCodes(null)} />}
      {enrolment ? (
        <form onSubmit={confirm} aria-label="Confirm the authenticator app">
          <p>Scan this code with an authenticator app (1Password, Google Authenticator, Aegis…), or type the key.</p>
          <QrCode text={enrolment.otpauth_url} />
          <p>
            Key: <code data-testid="totp-secret">{enrolment.secret}</code>{" "}
            <CopyButton text={enrolment.secret} label="Copy the key" />
          </p>
          <label for="totp-code">The six-digit code the app shows</label>
          <input
            id="totp-code"
            inputMode="numeric"
            autocomplete="one-time-code"
            required
            value={code}
            onInput={(e) => setCode(e.currentTarget.value)}
          />
          <button type="submit" disabled={busy}>
            Turn on
          </button>
          <button type="button" onClick={() => setEnrolment(null)}>
            Cancel
          </button>
        </form>
      ) : enabled ? (
        <form onSubmit={turnOff} aria-label="Two-step sign-in is on">
          <p>
            <strong>On.</strong> Signing in with your password also asks for a code from your authenticator app, or a
            recovery code.
          </p>
          {passwordField}
          <button type="submit" class="danger" disabled={busy}>
            Turn off
          </button>
          <button type="button" disabled={busy || !password} onClick={() => void replaceCodes()}>
            New recovery codes
          </button>
        </form>
      ) : (
        <form onSubmit={begin} aria-label="Set up two-step sign-in">
          <p>
            <strong>Off.</strong> Add a second step to signing in with your password: a code from an app on your phone,
            so that a password alone is not enough.
          </p>
          {passwordField}
          <button type="submit" disabled={busy}>
            Set up an authenticator app
          </button>
        </form>
      )}
      <Alert message={error} />
    </section>
  );
}

export function AccountScreen() {
  const access = useContext(AccessContext);
  const [person, setPerson] = useState(access.person);
  if (!person)
    return (
      <section aria-labelledby="account-title">
        <PageHeader
          id="account-title"
          title="Your account"
          description="Your account is for people signed in with email and password or SSO, not API keys."
        />
      </section>
    );
  const refresh = async () => setPerson((await fetchAccess()).person);
  return (
    <section aria-labelledby="account-title">
      <PageHeader
        id="account-title"
        title="Your account"
        description={
          <>
            {person.user.name} · {person.user.email}
            {person.user.instance_admin && " · instance admin"}
          </>
        }
      />
      <PasswordForm />
      <TwoStep enabled={person.user.totp_enabled} onChanged={refresh} />
    </section>
  );
}
