/**
 * MJML templates: a source whose root is <mjml> is rendered to responsive HTML (no remote fonts) before Handlebars
 * fills it, escaped; a published version keeps its engine while the draft changes; and MJML's own mistakes (unknown
 * elements, illegal attributes, Handlebars errors inside) are reported at their line and column, as Handlebars'
 * are in templates.test.ts.
 */
import { describe, expect, test } from "bun:test";
import type { Resend } from "resend";
import type { TestApp } from "./helpers/app.ts";
import type { SmtpDouble } from "./helpers/smtp-double.ts";
import { setUpTemplateApp } from "./helpers/templates.ts";

let t: TestApp;
let smtp: SmtpDouble;
let resend: Resend;

setUpTemplateApp((app) => ({ t, smtp, resend } = app));

const MJML_RECEIPT = `<mjml>
  <mj-body>
    <mj-section>
      <mj-column>
        <mj-text>Thanks, {{name}}!</mj-text>
        <mj-button href="{{url}}">See your receipt</mj-button>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

describe("MJML", () => {
  test("an MJML template renders to responsive HTML, then Handlebars (escaped) fills it", async () => {
    // The SDK sends no `engine`: a source whose root is <mjml> is MJML.
    const created = await resend.templates.create({
      name: "Receipt",
      alias: "receipt",
      subject: "Receipt for {{name}}",
      html: MJML_RECEIPT,
    });
    expect(created.error).toBeNull();
    expect((await resend.templates.get("receipt")).data).toMatchObject({ engine: "mjml" });
    const res = await t.json("POST", `/v1/templates/receipt/render`, {
      body: { variables: { name: "<Ann>", url: "https://example.com/r/1?a=1&b=2" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.subject).toBe("Receipt for <Ann>");
    expect(res.body.html).toStartWith("<!doctype html>");
    expect(res.body.html).toContain("@media only screen and (min-width:480px)");
    expect(res.body.html).toContain("Thanks, &lt;Ann&gt;!");
    expect(res.body.html).toContain('href="https://example.com/r/1?a&#x3D;1&amp;b&#x3D;2"');
    expect(res.body.text).toContain("Thanks, <Ann>!");
    expect(res.body.html).not.toContain("<mj-");
    // MJML's default font would link Google Fonts: nothing remote unless the template asks for it.
    expect(res.body.html).not.toContain("fonts.googleapis.com");
  });

  test("a published version keeps its engine when the draft changes engine", async () => {
    const { data } = await resend.templates.create({
      name: "Switch",
      html: "<mj-text>{{a}}</mj-text>",
      subject: "s",
      from: "hello@example.com",
    });
    await resend.templates.publish(data!.id);
    expect(
      (await t.json("PATCH", `/v1/templates/${data!.id}`, { body: { engine: "mjml", html: MJML_RECEIPT } })).status,
    ).toBe(200);
    expect((await resend.templates.get(data!.id)).data).toMatchObject({
      engine: "mjml",
      has_unpublished_versions: true,
    });
    const sent = await t.json("POST", "/v1/emails", {
      body: { to: "someone@dest.test", template: { id: data!.id, variables: { a: "x" } } },
    });
    expect(sent.status).toBe(200);
    await t.app.services.worker.runOnce();
    expect(smtp.received.at(-1)!.raw.toString()).toContain("<mj-text>x</mj-text>");
  });

  test.each([
    [
      "an unknown element",
      "<mjml>\n  <mj-body>\n    <mj-section><mj-column>\n      <mj-texte>hi</mj-texte>\n    </mj-column></mj-section>\n  </mj-body>\n</mjml>",
      { line: 4, column: 7 },
      "mj-texte",
    ],
    [
      "an illegal attribute",
      '<mjml>\n<mj-body><mj-section>\n<mj-column>  <mj-text colour="red">x</mj-text></mj-column>\n</mj-section></mj-body></mjml>',
      { line: 3, column: 14 },
      "colour",
    ],
    [
      "a Handlebars error inside MJML",
      "<mjml><mj-body><mj-section><mj-column>\n<mj-text>\n  {{#if a}}x{{/each}}</mj-text>\n</mj-column></mj-section></mj-body></mjml>",
      { line: 3, column: 6 },
      "each",
    ],
    ["a source that is not MJML", "<p>just html</p>", { line: 1, column: 1 }, "mjml"],
  ])("validate: %s is reported at its line and column", async (_name, html, at, word) => {
    const res = await t.json("POST", "/v1/templates/validate", { body: { engine: "mjml", html } });
    expect(res.body.valid).toBe(false);
    expect(res.body.errors[0]).toMatchObject({ field: "html", ...at });
    expect(res.body.errors[0].message).toContain(word);
    expect((await t.json("POST", "/v1/templates", { body: { name: "bad", engine: "mjml", html } })).status).toBe(400);
  });

  test("validate: a good MJML source is valid; an unknown engine is refused", async () => {
    expect(
      (await t.json("POST", "/v1/templates/validate", { body: { engine: "mjml", html: MJML_RECEIPT } })).body,
    ).toEqual({ valid: true, errors: [] });
    expect(
      (await t.json("POST", "/v1/templates/validate", { body: { engine: "liquid", html: "x" } })).body.details,
    ).toEqual([{ path: "engine", message: 'must be "handlebars" or "mjml"' }]);
  });
});
