/**
 * Template benchmarks (issue 13), recorded for comparison (no targets of their own):
 *   (t1) per-render time of a cached Handlebars template, and of an MJML template — its first render (MJML
 *        compiled) and the cached renders after it; MJML compiled on every render, for what the cache saves. This is
 *        a render's own work, as a thread of the CPU pool does it (templates/render.ts), without the trip to it
 *   (t2) sends through the funnel (`sendFields` → `emails.submit`, as the HTTP route does) with a template
 *        against the same message without one, alternating rounds in one run on a real SQLite file
 * BENCH_TEMPLATE_RENDERS (default 20000) sets the renders of (t1), BENCH_TEMPLATE_SENDS (default 2000) each round
 * of (t2).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mjml2html from "mjml";
import { createServices } from "../src/server/app.ts";
import { buildConfig } from "../src/config/load.ts";
import { operatorActor } from "../src/access.ts";
import { silentLogger } from "../src/lib/logger.ts";
import type { TemplateContent, TemplateValues } from "../src/templates/model.ts";
import { loadTemplateEngines, performTemplateJob, type TemplateJob } from "../src/templates/render.ts";
import { sendFields } from "../src/emails/send-fields.ts";
import { fmt, record } from "./bench/report.ts";

const RENDERS = Number(process.env.BENCH_TEMPLATE_RENDERS ?? 20_000);
const SENDS = Number(process.env.BENCH_TEMPLATE_SENDS ?? 2_000);
const ROUNDS = 3;

const HTML = `<table width="600"><tr><td><h1>Hello {{name}}</h1><p>Your order {{order}} of {{count}} items has shipped.</p>
{{#if count}}<p>{{count}} items</p>{{/if}}<p><a href="{{url}}">Track it</a></p>{{{footer}}}</td></tr></table>`;
const MJML = `<mjml><mj-body><mj-section><mj-column>
<mj-text><h1>Hello {{name}}</h1>Your order {{order}} of {{count}} items has shipped.</mj-text>
<mj-button href="{{url}}">Track it</mj-button><mj-text>{{{footer}}}</mj-text>
</mj-column></mj-section></mj-body></mjml>`;
const VARIABLES: TemplateValues = {
  name: "Ann <ann@example.com>",
  order: "A-1001",
  count: 3,
  url: "https://track.example/A-1001",
  footer: "<hr><small>Acme</small>",
};

const content = (engine: "handlebars" | "mjml", html: string): TemplateContent => ({
  engine,
  subject: "Order {{order}} shipped",
  from: null,
  reply_to: null,
  html,
  text: null,
  variables: [],
});

/** A preview's render (text made from the html), as the pool's thread does it. */
async function render(versionId: string, template: TemplateContent, values: TemplateValues) {
  const job: TemplateJob = {
    kind: "render",
    versionId,
    content: template,
    values,
    maxBytes: 40 * 1024 * 1024,
    withText: true,
  };
  await loadTemplateEngines(job);
  const outcome = await performTemplateJob(job);
  if (outcome.kind !== "rendered")
    throw new Error(`the benchmark's template did not render: ${JSON.stringify(outcome)}`);
  return outcome;
}

async function perRender(label: string, once: () => Promise<unknown>, count: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) await once();
  const micros = ((performance.now() - started) * 1000) / count;
  console.log(`(t1) ${label}: ${fmt(micros, 1)} µs per render (${count} renders)`);
  return micros;
}

async function renders() {
  const handlebars = content("handlebars", HTML);
  const mjml = content("mjml", MJML);
  const hb = await perRender("Handlebars, cached", () => render("bench-hb", handlebars, VARIABLES), RENDERS);
  const firstStarted = performance.now();
  await render("bench-mjml", mjml, VARIABLES);
  const first = performance.now() - firstStarted;
  console.log(`(t1) MJML, first render (compiler loaded, MJML compiled): ${fmt(first, 1)} ms`);
  const cached = await perRender("MJML, cached", () => render("bench-mjml", mjml, VARIABLES), RENDERS);
  const uncached = await perRender(
    "MJML compiled on every render (no cache)",
    () => mjml2html(MJML, { validationLevel: "soft" }),
    Math.max(50, RENDERS / 100),
  );
  record({ measure: "render a cached Handlebars template", result: `${fmt(hb, 1)} µs`, target: "", met: null });
  record({
    measure: "render an MJML template: first / cached / MJML on every render",
    result: `${fmt(first, 1)} ms / ${fmt(cached, 1)} µs / ${fmt(uncached / 1000, 2)} ms`,
    target: "",
    met: null,
  });
}

async function sends() {
  const dataDir = mkdtempSync(join(tmpdir(), "mailroom-bench-templates-"));
  const config = buildConfig({}, {}, { "": { data_dir: dataDir } });
  const services = await createServices(config, {
    logger: silentLogger,
    secretKey: Buffer.alloc(32, 3).toString("base64"),
  });
  const org = await services.organizations.ensureDefault();
  const actor = operatorActor(org.id);
  await services.domains.add(actor, "example.com", { verifiedOverride: true });
  const { id } = await services.templates.create(actor, {
    name: "Shipped",
    engine: "handlebars",
    subject: "Order {{order}} shipped",
    html: HTML,
    from: "Shop <orders@example.com>",
  });
  await services.templates.publish(actor, id);

  // The same message both ways: the plain body is what the template renders to (html only, as the template has
  // no text: the composer makes the text in both cases).
  const rendered = await render("bench-plain", content("handlebars", HTML), VARIABLES);
  const plain = {
    from: "Shop <orders@example.com>",
    to: "buyer@dest.test",
    subject: rendered.subject,
    html: rendered.html,
  };
  const templated = { to: "buyer@dest.test", template: { id, variables: VARIABLES } };
  const context = () => ({ now: Date.now(), maxRecipients: config.limits.max_recipients });
  const round = async (body: unknown) => {
    const started = performance.now();
    // 16 at a time, as concurrent API requests would arrive.
    for (let sent = 0; sent < SENDS; sent += 16) {
      await Promise.all(
        Array.from({ length: Math.min(16, SENDS - sent) }, async () =>
          services.emails.submit(
            { kind: "fields", source: "api", fields: await sendFields(services.templates, actor, body, context()) },
            actor,
          ),
        ),
      );
    }
    return SENDS / ((performance.now() - started) / 1000);
  };
  await round(plain); // warm-up: prepared statements, JIT
  const rates = { plain: [] as number[], templated: [] as number[] };
  for (let i = 0; i < ROUNDS; i++) {
    rates.plain.push(await round(plain));
    rates.templated.push(await round(templated));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const [without, withTemplate] = [median(rates.plain), median(rates.templated)];
  console.log(
    `(t2) sends without a template ${rates.plain.map((r) => fmt(r)).join(", ")} msg/s; with ${rates.templated.map((r) => fmt(r)).join(", ")} msg/s (${ROUNDS} alternating rounds of ${SENDS})`,
  );
  record({
    measure: "send through the funnel: without / with a template (median of 3 alternating rounds)",
    result: `${fmt(without)} / ${fmt(withTemplate)} msg/s (${fmt(withTemplate / without, 2)}×)`,
    target: "",
    met: null,
  });

  await services.closeProviders();
  await services.store.close();
  rmSync(dataDir, { recursive: true, force: true });
}

await renders();
await sends();
