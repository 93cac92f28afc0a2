/**
 * A `/healthz` client on a thread of its own (a Worker), so that its clock keeps running while the server's event
 * loop is held: asked from the server's own loop, a probe scheduled during a stall would start only after it, and
 * the stall would go unseen. Message `{url, everyMs}` starts it; `"stop"` ends it and answers
 * `{probes, slowestMs, failures}`, the slowest measured from when each probe was due, not from when it could start.
 */
declare const self: Worker;

let running = false;
let done: Promise<{ probes: number; slowestMs: number; failures: number }> | undefined;

self.onmessage = async (event: MessageEvent<{ url: string; everyMs: number } | "stop">) => {
  if (event.data === "stop") {
    running = false;
    postMessage(await done);
    return;
  }
  const { url, everyMs } = event.data;
  running = true;
  done = (async () => {
    let probes = 0;
    let failures = 0;
    let slowestMs = 0;
    while (running) {
      const due = performance.now();
      try {
        const answer = await fetch(url);
        await answer.arrayBuffer();
        if (answer.status !== 200) failures++;
      } catch {
        failures++;
      }
      slowestMs = Math.max(slowestMs, performance.now() - due);
      probes++;
      await Bun.sleep(everyMs);
    }
    return { probes, slowestMs, failures };
  })();
};
