/**
 * The template tests' app (test/templates*.test.ts): a started Mailroom whose deliveries go to a programmable SMTP
 * server on loopback, example.com verified, the Resend SDK pointed at its HTTP port; and the Welcome template the
 * SDK creates in several of them.
 */
import { Resend } from "resend";
import { createTestApp, type TestApp } from "./app.ts";
import { closeAll, setUpFixture } from "./fixture.ts";
import { startSmtpDouble, type SmtpDouble } from "./smtp-double.ts";

export interface TemplateApp {
  t: TestApp;
  /** Where every delivery arrives. */
  smtp: SmtpDouble;
  /** The official SDK, with the app's live key. */
  resend: Resend;
  /** The SMTP relay's STARTTLS port. */
  submissionPort: number;
  close(): Promise<void>;
}

/** The app for the file's tests: started (listeners on port 0) before them, closed after; `bind` takes it. */
export function setUpTemplateApp(bind: (app: TemplateApp) => void): void {
  setUpFixture({ start: startTemplateApp, stop: (app) => app.close(), bind });
}

async function startTemplateApp(): Promise<TemplateApp> {
  const smtp = await startSmtpDouble();
  const t = await createTestApp({
    delivery: { default_provider: "smtp" },
    smarthost: { host: "127.0.0.1", port: smtp.port, security: "none" },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const listeners = await t.app.start();
  const resend = new Resend(t.liveKey, {
    baseUrl: `http://127.0.0.1:${listeners.find((l) => l.name === "http")!.port}/v1`,
  });
  return {
    t,
    smtp,
    resend,
    submissionPort: listeners.find((l) => l.name === "submission")!.port,
    close: () => closeAll(t, smtp),
  };
}

/** A Handlebars template with a string variable that falls back and a number that is required. */
export const WELCOME = {
  name: "Welcome",
  alias: "welcome",
  subject: "Welcome, {{name}} & co",
  from: "Acme <hello@example.com>",
  html: "<p>Hello {{name}}, you have {{count}} credits.</p>{{{footer}}}",
  variables: [
    { key: "name", type: "string" as const, fallbackValue: "friend" },
    { key: "count", type: "number" as const },
  ],
};
