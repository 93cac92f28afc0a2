/**
 * A thread of the CPU pool (thread-pool.ts): answers each `{id, task}` posted to it with `{id, value, error}`, the
 * work done by the entry's task table. An `AppError` thrown by the work travels back as a refusal, to be thrown again
 * as itself; any other failure as its message. A task's `prepare` (loading what its work needs, e.g. the template
 * engines) runs first; then the thread says it has begun, and the task's time budget counts from there.
 * Invariant: every task is answered (unless the pool terminates the thread), and `started` precedes the answer.
 */
import { AppError } from "../errors.ts";
import type { Answer, Task, ThreadMessage } from "./thread-pool.ts";

declare const self: Worker;

const messageOf = (error: unknown) => String((error as { message?: string })?.message ?? error);

export interface TaskTable<T extends Task> {
  /** What a task loads before its own work begins; not counted against its budget. */
  prepare?: (task: T) => Promise<void>;
  perform: (task: T) => Promise<unknown>;
}

export function serveTasks<T extends Task>(table: TaskTable<T>): void {
  self.onmessage = async (event: MessageEvent<{ id: number; task: T }>) => {
    const { id, task } = event.data;
    let answer: Answer;
    try {
      await table.prepare?.(task);
      postMessage({ id, started: true } satisfies ThreadMessage);
      answer = { id, value: await table.perform(task), error: null };
    } catch (error) {
      const refusal =
        error instanceof AppError ? { name: error.name, message: error.message, details: error.details } : undefined;
      answer = { id, value: null, error: messageOf(error), ...(refusal && { refusal }) };
    }
    postMessage(answer);
  };
}
