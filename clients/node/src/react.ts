/**
 * React Email rendering for `react` on sends, batch items and templates. `@react-email/render` (with `react`) is an
 * optional peer dependency loaded with `import()` on first use, so callers who never pass `react` install nothing.
 */
import { MailroomError } from "./errors.js";
import type { ReactElementLike } from "./types.js";

interface RenderModule {
  render(element: unknown, options?: { plainText?: boolean }): Promise<string> | string;
}

let loading: Promise<RenderModule> | undefined;

const MISSING_MESSAGE = "install @react-email/render and react to send React Email components";

function renderer(): Promise<RenderModule> {
  if (!loading) {
    loading = import("@react-email/render").then((module) => module as unknown as RenderModule);
    // A failed load is not kept: installing the package makes the next call work without a restart.
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

/**
 * The fields a `react` element stands for: `html`, and `text` when the caller gave none. Either the fields or a
 * `missing_dependency` / `render_error` error; nothing is sent in the second case.
 */
export async function renderReact(
  element: ReactElementLike,
  withText: boolean,
): Promise<{ html: string; text?: string } | MailroomError> {
  let module: RenderModule;
  try {
    module = await renderer();
  } catch (cause) {
    return new MailroomError({ name: "missing_dependency", message: MISSING_MESSAGE, cause });
  }
  try {
    const html = await module.render(element);
    return withText ? { html, text: await module.render(element, { plainText: true }) } : { html };
  } catch (cause) {
    // React itself missing surfaces here, from inside the renderer: it is the same missing peer.
    if (isModuleNotFound(cause))
      return new MailroomError({ name: "missing_dependency", message: MISSING_MESSAGE, cause });
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new MailroomError({ name: "render_error", message: `Rendering the react element failed: ${reason}`, cause });
  }
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

/**
 * A body ready for the wire: `react` rendered into `html` (and `text` when absent), then removed. Bodies without
 * `react` come back unchanged.
 */
export async function withRenderedReact<
  T extends { react?: ReactElementLike; html?: string | null; text?: string | null },
>(body: T): Promise<Omit<T, "react"> | MailroomError> {
  const { react, ...rest } = body;
  if (react === undefined) return rest;
  const rendered = await renderReact(react, rest.text === undefined || rest.text === null);
  if (rendered instanceof MailroomError) return rendered;
  return { ...rest, ...rendered };
}
