import { describe, expect, test } from "bun:test";
import { previewText } from "./preview-text.ts";
import { SUBJECT_RULES, type SubjectInput } from "./subject-rules.ts";
import { scoreSubject } from "./subject-score.ts";

const GOOD_HTML = `<!doctype html>
<html><head><title>Invoice</title><style>.preheader { display: none; } p { color: #333; }</style></head>
<body>
  <div class="preheader">Amount due: $42.00 by 1 April &mdash; view or download the PDF.</div>
  <p>Hi {{first_name}},</p>
  <p>Your invoice for March is attached.</p>
</body></html>`;

/** For every rule: an input that trips it and one that does not. */
const CASES: Record<string, { trips: SubjectInput; passes: SubjectInput }> = {
  "length.empty": { trips: { subject: "   " }, passes: { subject: "Your receipt" } },
  "length.too_short": { trips: { subject: "Hi there" }, passes: { subject: "Your receipt from Acme" } },
  "length.too_long": {
    trips: { subject: "Your monthly account summary for March is ready to view in the Acme dashboard" },
    // 58 characters with five emoji: counted as graphemes, not UTF-16 code units, so it fits.
    passes: { subject: "Your order shipped 👨‍👩‍👧‍👦🇫🇷🎉👍🏽❤️ and arrives on Thursday afternoon" },
  },
  "length.too_many_words": {
    trips: { subject: "We have a new plan for you and your team to try out" },
    passes: { subject: "Your new plan starts on 1 May" },
  },
  "spam.trigger_words": {
    trips: { subject: "Get a free upgrade today" },
    // "freedom" and "cashier" contain "free" and "cash" but not as whole words.
    passes: { subject: "Freedom Bank: the cashier cheque you ordered" },
  },
  "caps.all_caps": { trips: { subject: "YOUR ORDER HAS SHIPPED" }, passes: { subject: "Your order has shipped" } },
  "caps.shouting_words": {
    trips: { subject: "Your order has SHIPPED and is ARRIVING" },
    passes: { subject: "Your API key and PDF invoice for the USA office" },
  },
  "punctuation.multiple_exclamations": {
    trips: { subject: "Welcome aboard! You're in!" },
    passes: { subject: "Welcome aboard, you're in!" },
  },
  "punctuation.repeated": {
    trips: { subject: "Did you forget something??" },
    passes: { subject: "Still thinking it over... your cart is saved" },
  },
  "punctuation.currency_symbols": {
    trips: { subject: "Pay $10 now or €12 later" },
    passes: { subject: "Your refund of $42 is on its way" },
  },
  "emoji.too_many": {
    trips: { subject: "Your order shipped 🎉🚚📦" },
    // ™ and © are pictographic code points but read as typography, so they do not count.
    passes: { subject: "Acme™ © update: your order shipped 🎉🚚" },
  },
  "deceptive.reply_prefix": {
    trips: { subject: "RE: your account" },
    passes: { subject: "Regarding your account: a new sign-in" },
  },
  "whitespace.irregular": {
    trips: { subject: " Your order  has shipped" },
    passes: { subject: "Your order has shipped" },
  },
  "personalisation.none": {
    trips: { subject: "Your order has shipped" },
    passes: { subject: "{{first_name}}, your order has shipped" },
  },
  "preview.missing": {
    trips: {
      subject: "Your order has shipped",
      html: "<html><head><title>Order</title></head><body><img src=x.png></body></html>",
    },
    passes: { subject: "Your order has shipped", html: "<p>Track it any time from your account.</p>" },
  },
  "preview.repeats_subject": {
    trips: { subject: "Your order has shipped", text: "\n\nYOUR ORDER HAS SHIPPED. It arrives on Thursday.\n" },
    passes: { subject: "Your order has shipped", text: "\n\nIt arrives on Thursday.\nYour order has shipped.\n" },
  },
  "readability.long_average_word": {
    trips: { subject: "Authentication configuration requirements" },
    passes: { subject: "Your sign-in settings changed" },
  },
  "readability.very_long_word": {
    trips: { subject: "Welcome to Supercalifragilisticexpialidocious!" },
    passes: { subject: "Welcome to Acme, your account is ready" },
  },
};

const RULES = SUBJECT_RULES.map((rule) => [rule.id, rule] as const);

describe("SUBJECT_RULES", () => {
  test("every rule has a case in the table, and every case a rule", () => {
    const ids = SUBJECT_RULES.map((rule) => rule.id);
    expect(ids.filter((id) => !(id in CASES))).toEqual([]);
    expect(Object.keys(CASES).filter((id) => !ids.includes(id))).toEqual([]);
  });

  test("ids are unique and dotted, weights positive integers, descriptions present", () => {
    const ids = SUBJECT_RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of SUBJECT_RULES) {
      expect(rule.id).toMatch(/^[a-z]+\.[a-z_]+$/);
      expect(Number.isInteger(rule.weight) && rule.weight > 0).toBe(true);
      expect(rule.description.length).toBeGreaterThan(0);
    }
  });

  test.each(RULES)("%s trips on its failing case", (id, rule) => {
    const input = CASES[id]!.trips;
    const result = rule.check(input);
    expect(result).toBeDefined();
    expect(result!.message.length).toBeGreaterThan(0);
    expect(result!.fix.length).toBeGreaterThan(0);
    const finding = scoreSubject(input).findings.find((f) => f.rule === id);
    expect(finding).toEqual({ rule: id, severity: rule.severity, message: result!.message, fix: result!.fix });
  });

  test.each(RULES)("%s passes its passing case", (id, rule) => {
    expect(rule.check(CASES[id]!.passes)).toBeUndefined();
  });
});

describe("individual rules", () => {
  const check = (id: string, input: SubjectInput) => SUBJECT_RULES.find((rule) => rule.id === id)!.check(input);

  test("spam words are quoted in order of appearance, and a longer phrase hides the words inside it", () => {
    const result = check("spam.trigger_words", { subject: "Risk-free trial: ACT NOW, $$$ for the winner" });
    expect(result!.message).toContain("“risk-free”, “act now”, “$$$”, “winner”");
    expect(result!.message).not.toContain("“free”");
  });

  test("spam words match curly apostrophes and placeholders never match", () => {
    expect(check("spam.trigger_words", { subject: "This isn’t spam, promise" })).toBeDefined();
    expect(check("spam.trigger_words", { subject: "Your {{free_plan}} renews soon" })).toBeUndefined();
  });

  test("a prefix is deceptive only at the start", () => {
    expect(check("deceptive.reply_prefix", { subject: "fwd: invoice" })!.message).toContain("“fwd:”");
    expect(check("deceptive.reply_prefix", { subject: "Your invoice (re: March)" })).toBeUndefined();
  });

  test("too long counts user-perceived characters and quotes where the subject is cut", () => {
    const result = check("length.too_long", { subject: `${"🎉".repeat(30)} ${"a".repeat(31)}` });
    expect(result!.message).toContain("62 characters");
  });

  test("preview.missing does not apply to a message without a body", () => {
    expect(check("preview.missing", { subject: "Your order has shipped" })).toBeUndefined();
    expect(check("preview.missing", { subject: "Your order has shipped", text: "\n \n" })).toBeDefined();
  });

  test("a placeholder in the subject matches any short value in the preview", () => {
    const subject = "{{first_name}}, your invoice {{number}} is ready";
    expect(
      check("preview.repeats_subject", { subject, html: "<p>Ann, your invoice #4411 is ready. Pay by 1 April.</p>" }),
    ).toBeDefined();
    expect(
      check("preview.repeats_subject", { subject, text: "{{ first_name }}, your invoice {{ number }} is ready." }),
    ).toBeDefined();
    expect(
      check("preview.repeats_subject", { subject, text: "Ann, your March invoice is attached; the total is $42." }),
    ).toBeUndefined();
    expect(check("preview.repeats_subject", { subject: "{{subject}}", text: "Anything at all" })).toBeUndefined();
  });

  test("a subject longer than the preview is still found repeated in it", () => {
    const subject = "A".repeat(5) + " word".repeat(30);
    expect(check("preview.repeats_subject", { subject, html: `<p>${subject}</p><p>More.</p>` })).toBeDefined();
  });
});

describe("previewText", () => {
  test("skips head, style, script and comments, decodes entities and collapses whitespace", () => {
    const html = `<html><head><title>T</title><style>p{}</style></head><body><!-- hidden --><script>var a = "<p>x</p>";</script>
      <p>Fish &amp; chips&nbsp;&lt;today&gt; &quot;hot&quot; &#39;fresh&#39; &#x263A;&zwnj;</p><p>Second</p></body></html>`;
    expect(previewText({ html })).toBe(`Fish & chips <today> "hot" 'fresh' ☺ Second`);
  });

  test("inline tags join words, block tags separate them", () => {
    expect(previewText({ html: "<p>Ac<b>me</b></p><p>Inc</p>" })).toBe("Acme Inc");
  });

  test("quoted attribute values may contain >", () => {
    expect(previewText({ html: `<a title="a > b" href='x'>Link</a>` })).toBe("Link");
  });

  test("is cut to about 100 characters and prefers html over text", () => {
    const preview = previewText({ html: `<p>${"word ".repeat(100)}</p>`, text: "ignored" })!;
    expect(preview.length).toBeLessThanOrEqual(100);
    expect(preview.startsWith("word word")).toBe(true);
  });

  test("uses the first non-empty line of text when there is no html", () => {
    expect(previewText({ text: "\r\n   \r\n  Hello   there \r\nsecond" })).toBe("Hello there");
    expect(previewText({})).toBeUndefined();
  });
});

describe("scoreSubject", () => {
  test("a well-written subject with a good html body scores at least 90 with no warnings", () => {
    const { score, findings } = scoreSubject({
      subject: "Your March invoice from Acme is ready, {{first_name}}",
      html: GOOD_HTML,
    });
    expect(findings.filter((f) => f.severity !== "info")).toEqual([]);
    expect(score).toBeGreaterThanOrEqual(90);
  });

  test("a terrible subject scores at most 40", () => {
    const { score, findings } = scoreSubject({ subject: "FREE!!! ACT NOW $$$ WINNER" });
    expect(score).toBeLessThanOrEqual(40);
    expect(findings.map((f) => f.rule)).toContain("spam.trigger_words");
  });

  test("the score is 100 minus the weights of the rules that tripped", () => {
    const input = { subject: "FREE!!! ACT NOW $$$ WINNER" };
    const weights = SUBJECT_RULES.filter((rule) => rule.check(input) !== undefined).reduce(
      (sum, rule) => sum + rule.weight,
      0,
    );
    expect(scoreSubject(input).score).toBe(Math.max(0, 100 - weights));
  });

  test("findings are ordered by severity, then by table order", () => {
    const { findings } = scoreSubject({ subject: "  ", html: "<p></p>" });
    expect(findings.map((f) => f.rule)).toEqual(["length.empty", "preview.missing"]);
    const rank = { error: 0, warning: 1, info: 2 };
    const order = (id: string) => SUBJECT_RULES.findIndex((rule) => rule.id === id);
    const many = scoreSubject({
      subject: " RE: FREE!!! Cash?? $$$ 🎉🎉🎉  SUPERCALIFRAGILISTICEXPIALIDOCIOUS ",
      text: "",
    }).findings;
    for (let i = 1; i < many.length; i++) {
      const [a, b] = [many[i - 1]!, many[i]!];
      expect(
        rank[a.severity] < rank[b.severity] || (rank[a.severity] === rank[b.severity] && order(a.rule) < order(b.rule)),
      ).toBe(true);
    }
  });

  test("the same input always scores the same", () => {
    const input = { subject: "RE: Free money!!", html: GOOD_HTML };
    expect(scoreSubject(input)).toEqual(scoreSubject(input));
  });

  const EXTREMES: SubjectInput[] = [
    { subject: "" },
    {
      subject: "FREE CASH WINNER URGENT!!! $$$ €€€ 🎉🎉🎉🎉 RE: CLICK HERE NOW NOW NOW NOW NOW NOW NOW NOW NOW NOW NOW",
      text: "",
    },
    { subject: "x".repeat(10_000) },
    { subject: "{{".repeat(5_000) + "}}".repeat(5_000) },
    ...Object.values(CASES).flatMap((c) => [c.trips, c.passes]),
  ];

  test.each(EXTREMES.map((input, index) => [index, input] as const))(
    "the score of input %d is an integer in 0..100",
    (_, input) => {
      const { score } = scoreSubject(input);
      expect(Number.isInteger(score)).toBe(true);
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(100);
    },
  );

  test.each([
    ["plain text", `<p>${"lorem ipsum ".repeat(90_000)}</p>`],
    ["open angle brackets", "<".repeat(1 << 20)],
    ["unterminated tags", "<a ".repeat(350_000)],
    ["an unterminated comment", `<!--${"-".repeat(1 << 20)}`],
    ["an unclosed style", `<style>${"p{} ".repeat(260_000)}`],
    ["entities", "&amp".repeat(260_000)],
    ["nested divs and a late text", `${"<div>".repeat(200_000)}Hello`],
  ])("a 1 MB html of %s is scored", (_, html) => {
    expect(html.length).toBeGreaterThanOrEqual(1_000_000);
    const { score } = scoreSubject({ subject: "Your order has shipped, {{first_name}}", html });
    expect(Number.isInteger(score)).toBe(true);
  });

  test("a 100 KB subject of pathological text is scored", () => {
    const subject = `${"!".repeat(25_000)}a ${"{{x".repeat(8_000)} ${"FREE ".repeat(5_000)}`;
    const { score } = scoreSubject({ subject, text: "x" });
    expect(Number.isInteger(score)).toBe(true);
  });
});
