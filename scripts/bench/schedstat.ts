/**
 * Telling a slow answer's own cost from the machine's: Linux's schedstat (/proc/<pid>/task/<tid>/schedstat) counts,
 * per thread, the time it ran on a CPU and the time it was runnable but waited for one (the run queue). On the
 * project's shared 2-core VM, with a load average of 20, a thread often waits hundreds of milliseconds for a CPU:
 * a latency measured by the wall clock then says more about the other processes than about the code. The
 * benchmarks print both: the wall-clock figure, and the figure without the run-queue wait of the threads that
 * served the call (or the time the serving thread was on a CPU).
 */
import { readFileSync } from "node:fs";

/** A thread's time on a CPU and waiting for one, in ms (the thread `tid` of process `pid`; the main thread by default). */
export function schedOf(pid: number, tid = pid): { onCpu: number; waiting: number } {
  try {
    const [onCpu, waiting] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ").map(Number);
    return { onCpu: onCpu! / 1e6, waiting: waiting! / 1e6 };
  } catch {
    return { onCpu: 0, waiting: 0 };
  }
}

/** The run-queue wait (ms) of the main threads of `pids`, summed. */
export function waitingOf(pids: readonly number[]): number {
  let waiting = 0;
  for (const pid of pids) waiting += schedOf(pid).waiting;
  return waiting;
}

/** The run-queue load of the machine: the 1-minute load average. */
export const loadAverage = (): number => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
