/**
 * The client of an OpenAI-compatible chat-completions endpoint (`[ai] base_url, model, api_key, timeout`): OpenAI,
 * a local Ollama, llama.cpp or vLLM server, anything that speaks `POST {base_url}/chat/completions`.
 * Invariant: every failure — nothing configured, a timeout, a refusal, an answer that is not a completion — is a
 * 503 `service_unavailable` that says what happened and never repeats the key or the server's body; an answer is
 * read up to 1 MiB as it arrives, a refusal not at all.
 */
import type { Config } from "../config/options.ts";
import { AppError } from "../errors.ts";
import { BodyTooLarge, readCappedText } from "../lib/capped-body.ts";
import { formatDuration } from "../lib/durations.ts";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatModel {
  /** The configured model's name, or null when `[ai]` names none (then every completion is refused, saying why). */
  readonly name: string | null;
  /** The completion's text. */
  complete(messages: ChatMessage[]): Promise<string>;
}

/**
 * Answers larger than this are not a draft of an email (a completion's JSON wraps a few KiB of text); the body is
 * cut off here as it arrives, so a server that streams without end costs no more.
 */
const MAX_ANSWER_BYTES = 1024 * 1024;

const unavailable = (message: string, options: { cause?: unknown; retryAfter?: number } = {}) =>
  new AppError("service_unavailable", message, options);

/** What a client is told when `[ai]` names no model: what to set. */
export const NO_MODEL =
  "No model is configured: set [ai] base_url and model (MAILROOM_AI_BASE_URL, MAILROOM_AI_MODEL), e.g. http://127.0.0.1:11434/v1 for a local Ollama.";

/** The model of `[ai]`; one that explains what to set when nothing is configured. */
export function createChatModel(settings: Config["ai"]): ChatModel {
  if (!settings.base_url || !settings.model) {
    return { name: null, complete: () => Promise.reject(unavailable(NO_MODEL)) };
  }
  const url = `${settings.base_url.replace(/\/+$/, "")}/chat/completions`;
  return {
    name: settings.model,
    async complete(messages) {
      const signal = AbortSignal.timeout(settings.timeout);
      const failed = (error: unknown) => {
        if (error instanceof BodyTooLarge)
          return unavailable("The model's answer was too large to be a draft.", { cause: error });
        if (signal.aborted)
          return unavailable(`The model did not answer within ${formatDuration(settings.timeout)} ([ai] timeout).`, {
            cause: error,
          });
        return unavailable("The model server could not be reached.", { cause: error });
      };
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(settings.api_key ? { authorization: `Bearer ${settings.api_key}` } : {}),
          },
          body: JSON.stringify({ model: settings.model, messages, temperature: 0.7 }),
          // The key goes to the configured server only, never to wherever it might redirect.
          redirect: "error",
          signal,
        });
      } catch (error) {
        throw failed(error);
      }
      if (!response.ok) {
        // A refusal's body is not shown to anyone: it is not read at all.
        await response.body?.cancel().catch(() => {});
        if (response.status === 429) {
          const retryAfter = Number(response.headers.get("retry-after"));
          throw unavailable(
            "The model server is rate limiting requests (429); try again later.",
            Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfter } : {},
          );
        }
        throw unavailable(`The model server answered ${response.status}.`);
      }
      let body: string;
      try {
        body = await readCappedText(response, MAX_ANSWER_BYTES);
      } catch (error) {
        throw failed(error);
      }
      let content: unknown;
      try {
        content = (JSON.parse(body) as { choices?: Array<{ message?: { content?: unknown } }> }).choices?.[0]?.message
          ?.content;
      } catch {
        content = undefined;
      }
      if (typeof content !== "string" || !content.trim())
        throw unavailable("The model server's answer was not a chat completion.");
      return content;
    },
  };
}

/** The JSON object in a model's answer: models wrap it in prose or code fences despite being told not to. */
export function jsonOfAnswer(answer: string): Record<string, unknown> | undefined {
  const start = answer.indexOf("{");
  const end = answer.lastIndexOf("}");
  if (start < 0 || end < start) return undefined;
  try {
    const value: unknown = JSON.parse(answer.slice(start, end + 1));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
