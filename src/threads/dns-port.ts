/**
 * DNS look-ups asked from a CPU-pool thread and answered on the event loop, over a MessagePort: the thread runs
 * mailauth, the configured resolver (`[dns] servers`, its cache) stays where it lives. Invariant: every question
 * is answered — with the records, or with an error that keeps its `code` (ENOTFOUND, ENODATA…), which is how
 * mailauth tells "no record" from "try again".
 */

type Resolve = (name: string, rrtype: string) => Promise<unknown>;
type Question = { id: number; name: string; rrtype: string };
type Reply =
  | { id: number; records: unknown; error: null }
  | { id: number; records: null; error: { message: string; code?: string } };

/** The event loop's side: answers each question on `port` with `resolve`. */
export function answerLookups(port: MessagePort, resolve: Resolve): void {
  port.onmessage = (event) => {
    const { id, name, rrtype } = event.data as Question;
    resolve(name, rrtype).then(
      (records) => port.postMessage({ id, records, error: null } satisfies Reply),
      (error: unknown) => {
        const { message, code } = (error ?? {}) as { message?: string; code?: string };
        port.postMessage({ id, records: null, error: { message: String(message ?? error), code } } satisfies Reply);
      },
    );
  };
}

/** The thread's side: a resolver that asks over `port`. */
export function lookupsOver(port: MessagePort): Resolve {
  const waiting = new Map<number, { resolve: (records: unknown) => void; reject: (error: Error) => void }>();
  let sequence = 0;
  port.onmessage = (event) => {
    const reply = event.data as Reply;
    const question = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.error === null) question?.resolve(reply.records);
    else question?.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
  };
  return (name, rrtype) =>
    new Promise((resolve, reject) => {
      const id = ++sequence;
      waiting.set(id, { resolve, reject });
      port.postMessage({ id, name, rrtype } satisfies Question);
    });
}
