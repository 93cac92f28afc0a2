/**
 * Authenticating a received message (docs/inbound.md#received-mail): the CPU pool's calls the funnel makes, what a
 * message's results are when the checks could not run or ran out of time, and the one authenticator per message —
 * SPF, DKIM, DMARC and ARC once, and once more per receiving domain that seals a forwarded copy of it (over the
 * copy's bytes, docs/inbound.md#forwarding). Invariant: a message mailauth cannot read, or not in time, is still
 * kept, with results that say what could not be checked — never a pass.
 */
import type { Logger } from "../lib/logger.ts";
import { CpuTaskOverrun } from "../threads/thread-pool.ts";
import type { ForwardIdentity } from "./forwarding.ts";
import type { ReceivedAuthentication } from "./model.ts";
import type { ReadMessage, SealedAuthentication, SessionFacts } from "./received.ts";

/**
 * Reading and authenticating a received message off the event loop (the CPU pool): the calls the funnel makes, each
 * for a tenant (the sending client's network), whose work takes turns with other clients'.
 */
export interface ReceivedReader {
  /**
   * Parses a received message and reads what it reports and its stored record; one beyond the parser's limits or its
   * time budget reads as nothing (`unparsed` says why). Rejects only if the thread fails.
   */
  readReceived(raw: Buffer, tenant: string): Promise<ReadMessage>;
  /**
   * SPF, DKIM, DMARC and ARC of a received message; DNS questions are answered here by `resolve`. Rejects with
   * `CpuTaskOverrun` past `budgetMs`, DNS included.
   */
  authenticateReceived(
    raw: Buffer,
    facts: SessionFacts,
    resolve: (name: string, rrtype: string) => Promise<unknown>,
    work: { tenant: string; budgetMs: number },
  ): Promise<SealedAuthentication>;
}

export const NOT_AUTHENTICATED: ReceivedAuthentication = { spf: null, dkim: [], dmarc: null, arc: null, header: "" };

/**
 * The results of checks stopped at their time budget (`[inbound] auth_timeout`, DNS included): RFC 8601's
 * temperror, "a later retry may produce a more final result" — never a pass, so nothing relies on them. The message
 * is stored with them rather than refused: its content was read, and a sender told to retry would cost the same
 * again (a hostile one, on every retry).
 */
export const timedOut = (hostname: string, budgetMs: number): ReceivedAuthentication => ({
  spf: { result: "temperror", domain: null },
  dkim: [{ result: "temperror", domain: null, selector: null, aligned: false }],
  dmarc: { result: "temperror", policy: null, domain: null },
  arc: null,
  header: `Authentication-Results: ${hostname}; spf=temperror; dkim=temperror; dmarc=temperror (checks stopped after ${budgetMs / 1000} s)`,
});

/** The authenticator of one message: its results, sealed for a forwarding domain when asked; each asked once. */
export function messageAuthenticator(input: {
  cpu: ReceivedReader;
  resolve: (name: string, rrtype: string) => Promise<unknown>;
  hostname: string;
  logger: Logger;
  raw: Buffer;
  facts: SessionFacts;
  tenant: string;
  budgetMs: number;
}) {
  const { cpu, logger, facts } = input;
  const work = { tenant: input.tenant, budgetMs: input.budgetMs };
  const checked = new Map<string, Promise<SealedAuthentication>>();
  return (seal?: { identity: ForwardIdentity; raw: Buffer }): Promise<SealedAuthentication> => {
    const key = seal ? `${seal.identity.domain}|${seal.identity.selector}` : "";
    let result = checked.get(key);
    if (!result) {
      const sealing: SessionFacts = seal
        ? {
            ...facts,
            seal: {
              signingDomain: seal.identity.domain,
              selector: seal.identity.selector,
              privateKey: seal.identity.privateKeyPem,
            },
          }
        : facts;
      result = cpu.authenticateReceived(seal?.raw ?? input.raw, sealing, input.resolve, work).catch((error) => {
        logger.warn("inbound message not authenticated", {
          reason: error instanceof Error ? error.message : String(error),
        });
        return error instanceof CpuTaskOverrun ? timedOut(input.hostname, work.budgetMs) : NOT_AUTHENTICATED;
      });
      checked.set(key, result);
    }
    return result;
  };
}
