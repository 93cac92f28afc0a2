/**
 * The curated rules a subject line is scored against, with the small text helpers they share (placeholder
 * stripping, word and case counting). Each rule is pure and runs in linear time in its input: no regular
 * expression here has nested quantifiers; the body is read only through its preview (preview-text.ts).
 */
import { graphemeCount, graphemes } from "./graphemes.ts";
import { type MessageBody, PREVIEW_LENGTH, previewText } from "./preview-text.ts";
import {
  MAX_LENGTH,
  MIN_LENGTH,
  MAX_WORDS,
  MAX_EMOJI,
  MAX_AVERAGE_WORD_LETTERS,
  MAX_WORD_LENGTH,
  quote,
  quoteAll,
  isBlank,
  PLACEHOLDER,
  hasPlaceholder,
  withoutPlaceholders,
  words,
  trimPunctuation,
  letterRuns,
  spamPhrases,
  isAllCaps,
  shoutingWords,
  emoji,
  MAX_PLACEHOLDER_VALUE,
  startsWithSubject,
  normalizedSubject,
} from "./subject-text.ts";

export interface SubjectInput extends MessageBody {
  subject: string;
}

export interface SubjectRule {
  /** Stable dotted id, e.g. "length.too_long". */
  id: string;
  severity: "info" | "warning" | "error";
  /** Points taken off the score of 100 when the rule trips. */
  weight: number;
  /** What the rule checks, for documentation. */
  description: string;
  /** Returns undefined when the subject passes, else the finding's specific message and an actionable fix. */
  check(input: SubjectInput): { message: string; fix: string } | undefined;
}

export const SUBJECT_RULES: SubjectRule[] = [
  {
    id: "length.empty",
    severity: "error",
    weight: 50,
    description: "The subject is empty or only whitespace.",
    check({ subject }) {
      if (!isBlank(subject)) return undefined;
      return {
        message:
          subject === "" ? "The subject is empty." : `The subject is only whitespace (${subject.length} characters).`,
        fix: "Write a subject that says what the message is about, e.g. “Your March invoice is ready”.",
      };
    },
  },
  {
    id: "length.too_short",
    severity: "warning",
    weight: 10,
    description: `The subject has fewer than ${MIN_LENGTH} characters.`,
    check({ subject }) {
      const trimmed = subject.trim();
      if (trimmed === "") return undefined;
      const length = graphemeCount(trimmed);
      if (length >= MIN_LENGTH) return undefined;
      return {
        message: `The subject ${quote(trimmed)} is only ${length} characters long, too short to say what the message is about.`,
        fix: "Say what the message is and who it is from, e.g. “Your Acme password was changed”.",
      };
    },
  },
  {
    // Mobile inboxes show roughly the first 40–60 characters; the rest is cut off.
    id: "length.too_long",
    severity: "warning",
    weight: 10,
    description: `The subject has more than ${MAX_LENGTH} user-perceived characters (graphemes).`,
    check({ subject }) {
      const trimmed = subject.trim();
      const length = graphemeCount(trimmed);
      if (length <= MAX_LENGTH) return undefined;
      const cut = graphemes(trimmed.slice(0, MAX_LENGTH * 8))
        .slice(0, MAX_LENGTH)
        .join("");
      return {
        message: `The subject is ${length} characters long; mobile inboxes show only about the first ${MAX_LENGTH}: ${quote(cut, MAX_LENGTH)}.`,
        fix: `Shorten the subject to ${MAX_LENGTH} characters or fewer and put the key detail first.`,
      };
    },
  },
  {
    id: "length.too_many_words",
    severity: "info",
    weight: 3,
    description: `The subject has more than ${MAX_WORDS} words.`,
    check({ subject }) {
      const count = words(subject).length;
      if (count <= MAX_WORDS) return undefined;
      return {
        message: `The subject has ${count} words; readers skim, and more than ${MAX_WORDS} is hard to take in at a glance.`,
        fix: `Cut the subject to ${MAX_WORDS} words or fewer, keeping the one fact the reader needs.`,
      };
    },
  },
  {
    id: "spam.trigger_words",
    severity: "warning",
    weight: 25,
    description:
      "The subject contains words or phrases that content filters associate with spam (case-insensitive, whole words).",
    check({ subject }) {
      const found = spamPhrases(subject);
      if (found.length === 0) return undefined;
      return {
        message: `The subject contains ${found.length === 1 ? "a phrase" : "phrases"} that spam filters flag: ${quoteAll(found)}.`,
        fix: `Reword without ${quoteAll(found)}: say plainly what the reader gets or has to do.`,
      };
    },
  },
  {
    id: "caps.all_caps",
    severity: "warning",
    weight: 20,
    description: "The whole subject is in capitals (at least 4 letters, none lower-case).",
    check({ subject }) {
      if (!isAllCaps(subject)) return undefined;
      return {
        message: `The whole subject ${quote(normalizedSubject(subject))} is in capitals, which reads as shouting and is a spam signal.`,
        fix: "Write the subject in sentence case, keeping capitals for names and acronyms.",
      };
    },
  },
  {
    id: "caps.shouting_words",
    severity: "warning",
    weight: 10,
    description: "Two or more words of 3+ letters are all in capitals (common acronyms such as PDF or API excepted).",
    check({ subject }) {
      // A subject entirely in capitals is caps.all_caps's finding; reporting it twice would double the penalty.
      if (isAllCaps(subject)) return undefined;
      const shouting = shoutingWords(subject);
      if (shouting.length < 2) return undefined;
      return {
        message: `The subject capitalises whole words for emphasis: ${quoteAll(shouting)}.`,
        fix: `Write ${quoteAll(shouting)} in normal case; let the wording carry the emphasis.`,
      };
    },
  },
  {
    id: "punctuation.multiple_exclamations",
    severity: "warning",
    weight: 10,
    description: "The subject has more than one exclamation mark.",
    check({ subject }) {
      let count = 0;
      for (const char of subject) {
        if (char === "!" || char === "！") count++;
        else if (char === "‼") count += 2;
      }
      if (count <= 1) return undefined;
      return {
        message: `The subject has ${count} exclamation marks; filters and readers both treat that as hype.`,
        fix: "Keep at most one “!”, or none.",
      };
    },
  },
  {
    id: "punctuation.repeated",
    severity: "warning",
    weight: 5,
    description: "The subject repeats question or exclamation marks (“!!”, “??”, “?!”, “!?”); an ellipsis is fine.",
    check({ subject }) {
      const runs = [...new Set(subject.match(/[!?]{2,}/g) ?? [])];
      if (runs.length === 0) return undefined;
      return {
        message: `The subject has repeated punctuation: ${quoteAll(runs)}.`,
        fix: "Use a single “?” or “!” (or none).",
      };
    },
  },
  {
    id: "punctuation.currency_symbols",
    severity: "warning",
    weight: 5,
    description: "The subject has more than one currency symbol.",
    check({ subject }) {
      const symbols = subject.match(/\p{Sc}/gu) ?? [];
      if (symbols.length <= 1) return undefined;
      return {
        message: `The subject has ${symbols.length} currency symbols (${quote(symbols.join(""))}), a pattern common in spam.`,
        fix: "Mention at most one amount, e.g. “Your refund of $42 is on its way”.",
      };
    },
  },
  {
    id: "emoji.too_many",
    severity: "warning",
    weight: 10,
    description: `The subject has more than ${MAX_EMOJI} emoji.`,
    check({ subject }) {
      const found = emoji(subject);
      if (found.length <= MAX_EMOJI) return undefined;
      return {
        message: `The subject has ${found.length} emoji (${quote(found.join(""))}); filters score them as promotional.`,
        fix: `Keep at most ${MAX_EMOJI} emoji, and only where they add meaning.`,
      };
    },
  },
  {
    // A fake "RE:" or "FW:" claims an earlier conversation that never happened; filters and readers treat it as deception.
    id: "deceptive.reply_prefix",
    severity: "warning",
    weight: 15,
    description: "The subject starts with “RE:”, “FW:” or “FWD:” although the message is not a reply or forward.",
    check({ subject }) {
      const prefix = /^\s*((?:re|fwd?)\s?:)/i.exec(subject)?.[1];
      if (prefix === undefined) return undefined;
      return {
        message: `The subject starts with ${quote(prefix)}, pretending the message is a reply or forward.`,
        fix: `Remove ${quote(prefix)} and start with what the message is about.`,
      };
    },
  },
  {
    id: "whitespace.irregular",
    severity: "info",
    weight: 2,
    description: "The subject has leading or trailing whitespace, a run of two or more spaces, or a tab or line break.",
    check({ subject }) {
      if (isBlank(subject)) return undefined;
      const problems: string[] = [];
      if (/^\s/.test(subject)) problems.push("starts with whitespace");
      if (/\s$/.test(subject)) problems.push("ends with whitespace");
      const run = /\s{2,}/.exec(subject.trim());
      if (run)
        problems.push(
          `has a run of ${run[0].length} whitespace characters after ${quote(subject.trim().slice(0, run.index))}`,
        );
      if (/[\t\r\n]/.test(subject)) problems.push("contains a tab or line break");
      if (problems.length === 0) return undefined;
      return {
        message: `The subject ${problems.join(", ")}.`,
        fix: "Trim the subject and separate words with single spaces.",
      };
    },
  },
  {
    // Recipients open messages that visibly concern them; a recognisable detail also sets the mail apart from bulk spam.
    id: "personalisation.none",
    severity: "info",
    weight: 2,
    description: "The subject has no Handlebars placeholder ({{...}}) to personalise it.",
    check({ subject }) {
      if (isBlank(subject) || hasPlaceholder(subject)) return undefined;
      return {
        message: `The subject ${quote(normalizedSubject(subject))} is the same for every recipient.`,
        fix: "Add {{first_name}} or another detail the reader recognises, e.g. an order number.",
      };
    },
  },
  {
    // Inboxes show the preview next to the subject; with no visible text they fill it with nothing or with raw markup.
    id: "preview.missing",
    severity: "warning",
    weight: 10,
    description: "The body (html, else text) has no visible text to show as the inbox preview.",
    check(input) {
      const preview = previewText(input);
      if (preview === undefined || preview !== "") return undefined;
      return {
        message:
          input.html !== undefined
            ? "The html body has no visible text, so the inbox preview is blank."
            : "The text body is empty.",
        fix: "Start the body with a sentence (or a hidden preheader) that adds to the subject, e.g. the amount and due date.",
      };
    },
  },
  {
    id: "preview.repeats_subject",
    severity: "warning",
    weight: 5,
    description: "The preview text starts with the subject, so the inbox shows the same words twice.",
    check(input) {
      const subject = normalizedSubject(input.subject);
      if (!/[\p{L}\p{N}]/u.test(withoutPlaceholders(subject))) return undefined;
      const placeholders = subject.match(PLACEHOLDER)?.length ?? 0;
      const preview = previewText(
        input,
        Math.max(PREVIEW_LENGTH, graphemeCount(subject) + placeholders * MAX_PLACEHOLDER_VALUE),
      );
      if (preview === undefined || !startsWithSubject(preview, subject)) return undefined;
      return {
        message: `The preview text ${quote(preview, 60)} starts with the subject, wasting the preview space.`,
        fix: "Open the body with a preheader that adds new information, e.g. the amount, date or next step.",
      };
    },
  },
  {
    id: "readability.long_average_word",
    severity: "info",
    weight: 3,
    description: `The subject's words average more than ${MAX_AVERAGE_WORD_LETTERS} letters.`,
    check({ subject }) {
      const runs = letterRuns(subject);
      if (runs.length === 0) return undefined;
      const letters = runs.reduce((sum, word) => sum + Array.from(word).length, 0);
      const average = letters / runs.length;
      if (average <= MAX_AVERAGE_WORD_LETTERS) return undefined;
      return {
        message: `The subject's words average ${average.toFixed(1)} letters; long words slow skimming readers down.`,
        fix: "Prefer short, everyday words, e.g. “use” over “utilisation”.",
      };
    },
  },
  {
    id: "readability.very_long_word",
    severity: "info",
    weight: 3,
    description: `A word in the subject is longer than ${MAX_WORD_LENGTH} characters.`,
    check({ subject }) {
      const long = withoutPlaceholders(subject)
        .split(/\s+/)
        .map(trimPunctuation)
        .filter((token) => graphemeCount(token) > MAX_WORD_LENGTH);
      if (long.length === 0) return undefined;
      return {
        message: `The subject has ${long.length === 1 ? "a word" : "words"} longer than ${MAX_WORD_LENGTH} characters: ${quoteAll(long)}.`,
        fix: "Break the long word up or replace it; a code or URL belongs in the body.",
      };
    },
  },
];
