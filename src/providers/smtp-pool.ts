/**
 * Pooled SMTP sessions (nodemailer's SMTPConnection) per destination — a recipient domain for direct delivery, the
 * one smarthost for relaying — and the transaction that sends a raw message through one. Invariants: at most
 * `maxConnections` sessions per destination, further deliveries waiting for one to be free; a session is reused
 * only while healthy (RSET after a rejected transaction, RFC 5321 §4.1.1.5), for at most MAX_MESSAGES_PER_CONNECTION
 * transactions, and closed after IDLE_CLOSE_MS unused. The message goes out as it is stored — dot-stuffed on the way
 * by SMTPConnection — with no MIME layer in between (nodemailer's `sendMail` built one per message for a raw body:
 * 16 % of signed delivery's event loop).
 */
import type SMTPConnection from "nodemailer/lib/smtp-connection";
import type { DeliveryResult } from "./types.ts";

/** Transactions per connection before it is closed and a fresh one opened. */
const MAX_MESSAGES_PER_CONNECTION = 100;
/** An unused pooled connection is closed after this long (RFC 5321 §4.5.3.2.7: servers wait at least 5 min). */
const IDLE_CLOSE_MS = 30_000;

/**
 * Connects `smtp` and resolves once the server greeted it (and TLS, where asked for, is up). Its 'error' listener is
 * kept for the session's life: an 'error' event without a listener would throw.
 */
export function greeted(smtp: SMTPConnection): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    smtp.on("error", reject);
    smtp.connect((error) => (error ? reject(error) : resolve()));
  });
}

export interface PooledSession {
  smtp: SMTPConnection;
  /** The host it is connected to, for logs. */
  host: string;
  messages: number;
  broken: boolean;
  idleTimer?: ReturnType<typeof setTimeout>;
}

interface DestinationPool {
  open: number;
  idle: PooledSession[];
  /** Deliveries waiting for a connection: handed one, or null when a slot freed up to open their own. */
  waiters: Array<(session: PooledSession | null) => void>;
}

export interface SmtpPool {
  /**
   * Sends `raw` from `from` to `to` over a session to `destination`, opened when none is free; answers the server's
   * final reply, or the result the opening gave instead of a session (no route, no server answered). A rejected
   * transaction throws nodemailer's error (with `responseCode`, `response`, `rejectedErrors`).
   */
  send(
    destination: string,
    envelope: { from: string; to: string },
    raw: Buffer,
  ): Promise<{ response: string; host: string } | DeliveryResult>;
  close(): void;
}

/**
 * `connect(destination)` opens a greeted (and, as the destination requires, secured and authenticated) session, or
 * answers why none could be opened.
 */
export function createSmtpPool(options: {
  maxConnections: number;
  connect: (destination: string) => Promise<PooledSession | DeliveryResult>;
  /** A destination's own limits (a shaped destination provider, docs/deliverability.md); absent: the pool's. */
  limitsOf?: (destination: string) => { maxConnections: number; maxMessagesPerConnection: number } | undefined;
}): SmtpPool {
  const maxConnectionsOf = (destination: string) =>
    options.limitsOf?.(destination)?.maxConnections ?? options.maxConnections;
  const maxMessagesOf = (destination: string) =>
    options.limitsOf?.(destination)?.maxMessagesPerConnection ?? MAX_MESSAGES_PER_CONNECTION;
  const pools = new Map<string, DestinationPool>();
  let closing = false;

  const poolOf = (destination: string): DestinationPool => {
    let pool = pools.get(destination);
    if (!pool) pools.set(destination, (pool = { open: 0, idle: [], waiters: [] }));
    return pool;
  };

  const discard = (destination: string, session: PooledSession) => {
    const pool = poolOf(destination);
    if (session.idleTimer) clearTimeout(session.idleTimer);
    session.smtp.quit();
    pool.open--;
    pool.waiters.shift()?.(null);
    if (pool.open === 0 && pool.waiters.length === 0) pools.delete(destination);
  };

  const acquire = async (destination: string): Promise<PooledSession | DeliveryResult> => {
    for (;;) {
      const pool = poolOf(destination);
      const idle = pool.idle.pop();
      if (idle) {
        clearTimeout(idle.idleTimer);
        if (!idle.broken) return idle;
        discard(destination, idle);
        continue;
      }
      if (pool.open < maxConnectionsOf(destination)) {
        pool.open++;
        let opened: PooledSession | DeliveryResult;
        try {
          opened = await options.connect(destination);
        } catch (error) {
          pool.open--;
          pool.waiters.shift()?.(null);
          throw error;
        }
        if ("smtp" in opened) {
          const session = opened;
          session.smtp.on("error", () => (session.broken = true));
          session.smtp.on("end", () => (session.broken = true));
        } else {
          pool.open--;
          pool.waiters.shift()?.(null);
        }
        return opened;
      }
      const handed = await new Promise<PooledSession | null>((resolve) => pool.waiters.push(resolve));
      if (handed) return handed;
    }
  };

  const release = (destination: string, session: PooledSession) => {
    if (session.broken || closing || session.messages >= maxMessagesOf(destination))
      return discard(destination, session);
    const pool = poolOf(destination);
    const waiter = pool.waiters.shift();
    if (waiter) return waiter(session);
    session.idleTimer = setTimeout(() => {
      pool.idle.splice(pool.idle.indexOf(session), 1);
      discard(destination, session);
    }, IDLE_CLOSE_MS);
    session.idleTimer.unref?.();
    pool.idle.push(session);
  };

  const transact = (session: PooledSession, from: string, to: string, raw: Buffer) =>
    new Promise<{ response: string }>((resolve, reject) => {
      session.messages++;
      session.smtp.send({ from, to: [to], size: raw.length }, raw, (error, info) =>
        error ? reject(error) : resolve({ response: info!.response }),
      );
    });

  const reset = (session: PooledSession) =>
    new Promise<void>((resolve) => {
      if (session.broken || session.smtp.destroyed) return resolve();
      session.smtp.reset((error) => {
        if (error) session.broken = true;
        resolve();
      });
    });

  return {
    async send(destination, envelope, raw) {
      const acquired = await acquire(destination);
      if (!("smtp" in acquired)) return acquired;
      try {
        const { response } = await transact(acquired, envelope.from, envelope.to, raw);
        return { response, host: acquired.host };
      } catch (error) {
        if (acquired.smtp.destroyed) acquired.broken = true;
        // A rejected transaction leaves the session mid-envelope; RSET makes it reusable.
        await reset(acquired);
        throw error;
      } finally {
        release(destination, acquired);
      }
    },
    close() {
      closing = true;
      for (const [destination, pool] of pools) {
        for (const session of pool.idle.splice(0)) discard(destination, session);
      }
    },
  };
}
