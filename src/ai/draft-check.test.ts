import { describe, expect, test } from "bun:test";
import { checkDraft, placeholdersIn } from "./draft-check.ts";

const html = (body: string) => ({ subject: "Your receipt", html: body, text: "Thanks." });

describe("checkDraft", () => {
  test("a clean draft passes, with links, inline styles, a meta charset and placeholder images", async () => {
    const body =
      '<html><head><meta charset="utf-8"><style>p { color: #333 }</style></head><body><p style="margin:0">Hi {{name}}<br>thanks</p><img src="{{logo_url}}" alt=""><a href="https://acme.example/help">Help</a></body></html>';
    expect(await checkDraft(html(body), "html", ["name"])).toEqual({ draft: html(body), problems: [] });
  });

  test.each([
    ["a script", "<p>x</p><script>alert(1)</script>", "<script> is not allowed"],
    ["an event handler", '<p onmouseover="x()">x</p>', "the event handler onmouseover="],
    ["a javascript: link", '<a href="javascript:steal()">x</a>', "a script URL in href="],
    ["a data:text/html link", '<a href="data:text/html;base64,PHA+">x</a>', "a script URL in href="],
    ["a remote image", '<img src="https://cdn.example/a.png">', "loads a remote resource"],
    [
      "a protocol-relative tracking pixel",
      '<img src="//t.example/p.gif" width="1" height="1">',
      "loads a remote resource",
    ],
    [
      "a remote background",
      '<table background="http://x.example/bg.png"><tr><td>x</td></tr></table>',
      "loads a remote resource",
    ],
    [
      "a remote CSS url in a style attribute",
      '<div style="background:url(https://x.example/p.gif)">x</div>',
      "a style on <div> loads a remote resource",
    ],
    [
      "a stylesheet import",
      "<style>@import url(https://fonts.example/f.css);</style><p>x</p>",
      "a <style> block loads a remote resource",
    ],
    [
      "a remote stylesheet link",
      '<link rel="stylesheet" href="https://x.example/s.css"><p>x</p>',
      "loads a remote resource",
    ],
    ["an iframe", '<iframe src="{{u}}"></iframe>', "<iframe> is not allowed"],
    ["a form", '<form action="https://x.example"><input name="a"></form>', "<form> is not allowed"],
    ["a meta refresh", '<meta http-equiv="refresh" content="0;url=https://x.example"><p>x</p>', 'http-equiv="refresh"'],
    ["an unclosed element", "<div><p>x</p>", "<div> is never closed"],
    ["a stray closing tag", "<p>x</p></div>", "a closing tag has no opening tag"],
    ["broken Handlebars", "<p>{{#if a}}x</p>", "html line 1"],
    ["an unknown helper", "<p>{{shout name}}</p>", "unknown helper shout"],
  ])("%s is a problem", async (_name, body, problem) => {
    const checked = await checkDraft(html(body), "html", []);
    expect(checked.draft).toBeUndefined();
    expect(checked.problems.join("\n")).toContain(problem);
  });

  test("the shape: subject on one line, html present, text a string", async () => {
    expect((await checkDraft({ subject: "a\nb", html: "<p>x</p>" }, "html", [])).problems).toEqual([
      '"subject" must be one line of text',
    ]);
    expect((await checkDraft({ subject: "s" }, "html", [])).problems).toEqual(['"html" must be the email body']);
    expect((await checkDraft({ subject: "s", html: "<p>x</p>", text: 3 }, "html", [])).problems).toEqual([
      '"text" must be a string',
    ]);
  });

  test("every placeholder of the brief must be kept, in the subject, html or text", async () => {
    expect(
      (await checkDraft({ subject: "Hi {{name}}", html: "<p>x</p>", text: "{{code}}" }, "html", ["name", "code"]))
        .problems,
    ).toEqual([]);
    expect((await checkDraft(html("<p>x</p>"), "html", ["name"])).problems).toEqual([
      "the placeholder {{name}} of the brief is missing",
    ]);
  });

  test("MJML: a good document passes; an unknown element and a remote image do not", async () => {
    const good =
      '<mjml><mj-body><mj-section><mj-column><mj-text>Hi {{name}}</mj-text><mj-image src="{{hero_url}}" /></mj-column></mj-section></mj-body></mjml>';
    expect((await checkDraft(html(good), "mjml", ["name"])).problems).toEqual([]);
    const bad =
      '<mjml><mj-body><mj-section><mj-column><mj-txt>x</mj-txt><mj-image src="https://x.example/a.png" /></mj-column></mj-section></mj-body></mjml>';
    const problems = (await checkDraft(html(bad), "mjml", [])).problems.join("\n");
    expect(problems).toContain("loads a remote resource");
    expect(problems).toContain("mj-txt");
  });
});

test("placeholdersIn: names of simple and raw placeholders, once each, not block words", () => {
  expect(placeholdersIn("{{a}} {{{ b }}} {{#each items}}{{this}}{{else}}{{a}}{{/each}} {{c.d}}")).toEqual(["a", "b"]);
});
