/**
 * A thread of the CPU pool (thread-pool.ts): answers each `{id, task}` posted to it with `{id, value, error}`, the
 * work done by the entry's `perform` (its task table). An `AppError` thrown by the work travels back as a refusal,
 * to be thrown again as itself; any other failure as its message. Work that loads things before its own work
 * begins calls `started` then, so a time budget counts from there. Invariant: every task is answered (unless the
 * pool terminates the thread).
 */
import { AppError } from "../errors.ts";
import type { Answer, Task, ThreadMessage } from "./thread-pool.ts";

declare const self: Worker;

const messageOf = (error: unknown) => String((error as { message?: string })?.message ?? error);

export function serveTasks<T extends Task>(perform: (task: T, started: () => void) => Promise<unknown>): void {
  self.onmessage = async (event: MessageEvent<{ id: number; task: T }>) => {
    const { id, task } = event.data;
    const started = () => postMessage({ id, started: true } satisfies ThreadMessage);
    let answer: Answer;
    try {
      answer = { id, value: await perform(task, started), error: null };
    } catch (error) {
      const refusal =
        error instanceof AppError ? { name: error.name, message: error.message, details: error.details } : undefined;
      answer = { id, value: null, error: messageOf(error), ...(refusal && { refusal }) };
    }
    postMessage(answer);
  };
}
