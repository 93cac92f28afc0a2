/**
 * The admin UI's Templates screen in a real browser (Debian's chromium via playwright-core) against the app on
 * loopback: a template created through the UI, Handlebars typed with a variable and seen rendered in the sandboxed
 * live preview, a syntax error listed at its line (a click or Enter puts the caret there), the fix, publish — and
 * the API then holds the published content and a send renders it; an MJML template previewed as HTML; duplicate and
 * delete; a key that may only read templates offered no control that writes. Every run asserts no console error and
 * no request off loopback, and keeps screenshots at 1280 and 390 px under test-output/.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import {
  BROWSER_START_MS,
  browserPeer as checkBrowser,
  screenshot,
  startUi,
  type UiSession,
  openSection,
} from "./helpers/browser.ts";

const browserPeer = checkBrowser();

let t: TestApp;
let ui: UiSession;

beforeAll(async () => {
  // The editor previews as one types, and every page opened lands on the overview and its figures: within a
  // minute the suite's key makes more than the default 100 requests, which is the rate limit's test, not this one's.
  t = await createTestApp({ limits: { key_requests_per_minute: 1000 } });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  ui = await startUi(t, browserPeer.available);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
});

const openPage = (width: number) => ui.open(width);
const signIn = (page: Page, key: string) => ui.signIn(page, key);

/** The template id the editor shows, from the address (`#/templates/<id>`). */
const idOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash.split("/")[2]!);

/** The 1-based line the textarea's caret is on, and whether it has the focus. The root tsconfig has no DOM types. */
const caretOf = (source: Locator) =>
  source.evaluate((el: any) => ({
    line: el.value.slice(0, el.selectionStart).split("\n").length,
    focused: el.ownerDocument.activeElement === el,
  }));

async function createThroughUi(page: Page, name: string, engine: "Handlebars (HTML)" | "MJML + Handlebars") {
  await openSection(page, "Templates");
  const form = page.getByRole("form", { name: "New template" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Engine").selectOption({ label: engine });
  await form.getByRole("button", { name: "Create template" }).click();
  await page.getByRole("heading", { name, level: 1 }).waitFor();
}

describe.skipIf(!browserPeer.available)("Templates screen in chromium", () => {
  for (const width of [1280, 390]) {
    test(`at ${width} px: create, type Handlebars with a variable, see it previewed, find a syntax error by its line, fix, publish`, async () => {
      const { page, problems } = await openPage(width);
      await signIn(page, t.liveKey);
      const name = `Welcome ${width}`;
      await createThroughUi(page, name, "Handlebars (HTML)");
      const id = idOf(page);
      await page.getByText("Draft: not published yet").waitFor();

      // A variable with a fallback, then the source typed key by key (the preview follows, debounced).
      await page.getByRole("button", { name: "Add variable" }).click();
      const variable = page.getByRole("group", { name: "Variable 1" });
      await variable.getByLabel("Key").fill("name");
      await variable.getByLabel("Fallback").fill("friend");
      await page.getByLabel("Subject").fill("Hi {{name}}");
      const source = page.getByLabel("HTML source");
      await source.fill("");
      await source.pressSequentially("<h1>Welcome</h1>\n<p>Hello {{name}}</p>");
      const good = "<h1>Welcome</h1>\n<p>Hello {{name}}</p>";
      expect(await source.inputValue()).toBe(good);

      const iframe = page.locator('iframe[title="Template preview"]');
      const preview = page.frameLocator('iframe[title="Template preview"]');
      await preview.getByText("Hello friend").waitFor();
      expect(await iframe.getAttribute("sandbox")).toBe("");
      // A sample value feeds the render: the subject and the body show it.
      await page.getByRole("group", { name: "Sample values" }).getByLabel("name", { exact: true }).fill("Ada <3");
      await preview.getByText("Hello Ada <3").waitFor();
      expect(await page.getByTestId("preview-subject").textContent()).toBe("Hi Ada <3");
      // `{{name}}` escapes: the value is text in the frame, never markup.
      expect(await iframe.getAttribute("srcdoc")).toContain("Hello Ada &lt;3");

      // A block closed by the wrong helper on line 3: listed with its line and column.
      await source.fill(`${good}\n<p>{{#if vip}}VIP{{/each}}</p>`);
      const problem = page.getByRole("list", { name: "Problems" }).getByRole("button");
      await problem.waitFor();
      expect(await problem.textContent()).toBe(
        "Source, line 3, column 7: {{/each}} on line 3 closes {{#if}}, opened on line 3: close it with {{/if}} first",
      );
      await page.getByText("The preview shows the last version without problems.").waitFor();
      await problem.click();
      expect(await caretOf(source)).toEqual({ line: 3, focused: true });
      // By keyboard too: from elsewhere, Enter on the problem moves the caret back to its line.
      await source.evaluate((el: any) => el.setSelectionRange(0, 0));
      await problem.focus();
      await page.keyboard.press("Enter");
      expect(await caretOf(source)).toEqual({ line: 3, focused: true });
      await page.getByText("Line 3, column 7.").waitFor();
      await screenshot(page, `ui-templates-error-${width}`);

      const fixed = `${good}\n<p>{{#if vip}}VIP{{/if}}</p>`;
      await source.fill(fixed);
      await page.getByRole("list", { name: "Problems" }).waitFor({ state: "detached" });
      await page.getByText("The preview shows the last version without problems.").waitFor({ state: "detached" });

      await page.getByRole("button", { name: "Publish" }).click();
      await page.getByText("Published: sends use this version from now on.").waitFor();
      await page.getByText(": sends use the published version.").waitFor();
      await screenshot(page, `ui-templates-${width}`);

      const saved = await t.json("GET", `/v1/templates/${id}`);
      expect(saved.body).toMatchObject({
        name,
        status: "published",
        has_unpublished_versions: false,
        engine: "handlebars",
        subject: "Hi {{name}}",
        html: fixed,
      });
      expect(saved.body.variables).toMatchObject([{ key: "name", type: "string", fallback_value: "friend" }]);
      // What was published is what sends: the message is rendered from it.
      const sent = await t.json("POST", "/v1/emails", {
        body: {
          from: "ui@example.com",
          to: [`reader-${width}@example.net`],
          template: { id, variables: { name: "Grace" } },
        },
      });
      expect(sent.status).toBe(200);
      const email = await t.json("GET", `/v1/emails/${sent.body.id}`);
      expect(email.body).toMatchObject({ subject: "Hi Grace", html: "<h1>Welcome</h1>\n<p>Hello Grace</p>\n<p></p>" });

      // The list shows it published.
      await page.getByRole("link", { name: "← All templates" }).click();
      const row = page.getByRole("row").filter({ has: page.getByRole("link", { name, exact: true }) });
      await row.getByText("published").waitFor();
      await screenshot(page, `ui-templates-list-${width}`);

      expect(problems).toEqual([]);
      await page.close();
    }, 30_000);
  }

  test("an MJML template is previewed as the HTML MJML makes of it, with its styles and no web font", async () => {
    const { page, problems } = await openPage(1280);
    await signIn(page, t.liveKey);
    await createThroughUi(page, "Receipt", "MJML + Handlebars");
    await page.getByRole("button", { name: "Add variable" }).click();
    await page.getByRole("group", { name: "Variable 1" }).getByLabel("Key").fill("order");
    await page.getByRole("group", { name: "Sample values" }).getByLabel("order", { exact: true }).fill("A-1001");
    const source = page.getByLabel("MJML source");
    await source.fill(
      '<mjml>\n  <mj-body>\n    <mj-section>\n      <mj-column>\n        <mj-text>Order {{order}} shipped</mj-text>\n        <mj-button href="https://shop.example/track">Track</mj-button>\n      </mj-column>\n    </mj-section>\n  </mj-body>\n</mjml>',
    );
    const text = page.frameLocator('iframe[title="Template preview"]').getByText("Order A-1001 shipped");
    await text.waitFor();
    const srcdoc = (await page.locator('iframe[title="Template preview"]').getAttribute("srcdoc"))!;
    expect(srcdoc).toContain("<table");
    expect(srcdoc).not.toContain("<mj-");
    // MJML's styles apply (its text is 13 px); MJML links no web font (templates/render.ts), so nothing remote was
    // there to take out.
    expect(await text.evaluate((el) => (globalThis as any).getComputedStyle(el).fontSize)).toBe("13px");
    expect(srcdoc).not.toMatch(/\shref="https:\/\/fonts/);
    expect(srcdoc).not.toMatch(/url\(\s*['"]?https?:/);
    expect(await page.getByText(/remote resources? \(images, fonts, styles\) not loaded/).count()).toBe(0);
    await screenshot(page, "ui-templates-mjml-1280");

    // An MJML mistake is reported at its line too.
    await source.fill(
      "<mjml>\n  <mj-body>\n    <mj-section>\n      <mj-text>outside a column</mj-text>\n    </mj-section>\n  </mj-body>\n</mjml>",
    );
    expect(await page.getByRole("list", { name: "Problems" }).getByRole("button").first().textContent()).toStartWith(
      "Source, line 4, column 7:",
    );
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  for (const width of [1280, 390])
    test(`at ${width} px a template whose variable has no fallback opens on its preview, the variable shown as a stand-in, not on an error`, async () => {
      const created = await t.json("POST", "/v1/templates", {
        body: {
          name: `Shipped ${width}`,
          html: "<p>Order {{order}} of {{count}} items shipped</p>",
          variables: [
            { key: "order", type: "string" },
            { key: "count", type: "number" },
          ],
        },
      });
      expect(created.status).toBe(200);
      const { page, problems } = await openPage(width);
      await signIn(page, t.liveKey);
      await page.goto(`${ui.base}/#/templates/${created.body.id}`);
      const preview = page.frameLocator('iframe[title="Template preview"]');
      await preview.getByText("Order [order] of 0 items shipped").waitFor();
      expect(await page.getByRole("alert").count()).toBe(0);
      const samples = page.getByRole("group", { name: "Sample values" });
      expect(await samples.getByLabel("order", { exact: true }).getAttribute("placeholder")).toBe("[order]");
      await samples.getByLabel("order", { exact: true }).fill("A-7");
      await preview.getByText("Order A-7 of 0 items shipped").waitFor();
      await screenshot(page, `ui-template-stand-ins-${width}`);
      expect(problems).toEqual([]);
      await page.close();
    }, 30_000);

  test("duplicate opens the copy; delete asks first and removes the template", async () => {
    const created = await t.json("POST", "/v1/templates", {
      body: { name: "Reset password", alias: "reset", html: "<p>Reset</p>" },
    });
    const { page, problems } = await openPage(390);
    await signIn(page, t.liveKey);
    // Found by its alias, then shown at its id.
    await openSection(page, "Templates");
    await page.getByLabel("ID or alias").fill("reset");
    await page.getByRole("button", { name: "Open" }).click();
    await page.getByRole("heading", { name: "Reset password", level: 1 }).waitFor();
    expect(idOf(page)).toBe(created.body.id);

    await page.getByRole("button", { name: "Duplicate" }).click();
    await page.getByRole("heading", { name: "Reset password (copy)", level: 1 }).waitFor();
    const copy = idOf(page);
    expect(copy).not.toBe(created.body.id);

    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Keep" }).click();
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Confirm delete Reset password (copy)" }).click();
    await page.getByRole("heading", { name: "Templates", level: 1 }).waitFor();
    expect((await t.json("GET", `/v1/templates/${copy}`)).status).toBe(404);
    expect((await t.json("GET", `/v1/templates/${created.body.id}`)).status).toBe(200);
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  test("a key that may only read templates sees them and their preview, and no control that writes", async () => {
    const created = await t.json("POST", "/v1/templates", {
      body: {
        name: "Read only",
        html: "<p>Hi {{who}}</p>",
        variables: [{ key: "who", type: "string", fallback_value: "reader" }],
      },
    });
    const reader = await t.json("POST", "/v1/api-keys", {
      body: { name: "templates reader", scopes: ["templates:read"] },
    });
    expect(reader.status).toBe(201);
    const { page, problems } = await openPage(390);
    const writes: string[] = [];
    page.on("request", (request) => {
      const path = new URL(request.url()).pathname;
      if (request.method() !== "GET" && !/^\/v1\/templates\/(validate|[^/]+\/render)$/.test(path))
        writes.push(`${request.method()} ${path}`);
    });
    await signIn(page, reader.body.token);
    await page.getByRole("heading", { name: "Templates", level: 1 }).waitFor();
    expect(await page.getByRole("form", { name: "New template" }).count()).toBe(0);
    await page.getByRole("link", { name: "Read only" }).click();
    await page.frameLocator('iframe[title="Template preview"]').getByText("Hi reader").waitFor();
    const why = "This API key cannot create, change or publish templates: it lacks the templates:write scope.";
    await page.getByText(why, { exact: true }).first().waitFor();
    // Saving and publishing stay in view, disabled with the reason as their description (issue 49 item 5).
    for (const control of ["Save draft", "Publish"]) {
      const button = page.getByRole("button", { name: control, exact: true });
      expect(await button.getAttribute("aria-disabled")).toBe("true");
      expect(
        await button.evaluate(
          (b) => (globalThis as any).document.getElementById(b.getAttribute("aria-describedby"))?.textContent,
        ),
      ).toBe(why);
    }
    for (const control of ["Duplicate", "Delete", "Add variable", "Remove variable who"]) {
      expect(await page.getByRole("button", { name: control }).count()).toBe(0);
    }
    expect(await page.getByLabel("HTML source").isEditable()).toBe(false);
    expect(await page.getByLabel("Name").isEditable()).toBe(false);
    expect(await page.getByLabel("Engine").isEnabled()).toBe(false);
    // Sample values are not writes: the reader may still try the template.
    await page.getByRole("group", { name: "Sample values" }).getByLabel("who", { exact: true }).fill("Lin");
    await page.frameLocator('iframe[title="Template preview"]').getByText("Hi Lin").waitFor();
    await screenshot(page, "ui-templates-readonly-390");
    expect(writes).toEqual([]);
    expect((await t.json("GET", `/v1/templates/${created.body.id}`)).body.status).toBe("draft");
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);
});
