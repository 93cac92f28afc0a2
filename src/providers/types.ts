/**
 * The provider interface: where a delivery goes once the worker claimed it. A provider speaks one transport and
 * reports what the remote side said; it never touches the store. Invariant: `deliver` resolves for every remote
 * outcome (it rejects only on its own bugs, which the worker treats as temporary).
 */

export interface DeliveryJob {
  deliveryId: string;
  emailId: string;
  organizationId: string;
  /** Envelope sender (MAIL FROM). */
  envelopeFrom: string;
  recipient: string;
  /** Earlier attempts at this recipient (0 on the first). */
  attempts: number;
  messageId: string;
  /** The stored MIME message. */
  raw: Buffer;
  /** The topic the message was sent for: each recipient's copy gets its own unsubscribe headers (domains/signing.ts). */
  topicId?: string;
  /** A broadcast's copy (docs/broadcasts.md): it carries one-click unsubscribe headers even without a topic. */
  broadcast?: boolean;
  /**
   * `enforced`: the sending domain requires TLS (docs/deliverability.md) — direct delivery only over STARTTLS with a certificate
   * valid for the MX name, else deferred. Set when the message is prepared for sending (domains/signing.ts).
   */
  tls?: "enforced";
  /** The `[ip_pools.<name>]` the sending domain names (docs/deliverability.md): direct delivery leaves from one of its addresses. */
  ipPool?: string;
}

export interface DeliveryResult {
  /** `delivered`: final acceptance by the recipient's system; `sent`: accepted by a relay that delivers further. */
  outcome: "delivered" | "sent" | "temporary" | "permanent";
  /** The remote reply, e.g. `250 2.0.0 OK` or `451 4.7.1 try again in 30 seconds`. */
  response: string;
  subType?: string;
  retryAfterMs?: number;
  providerMessageId?: string;
  /**
   * A temporary failure that is the provider's own — unreachable, its API's 5xx, throttling, refused credentials —
   * not the recipient's: it counts towards failing the provider over (providers/router.ts).
   */
  providerFault?: boolean;
  /**
   * The receiving side reported the recipient's complaint together with its acceptance (only the simulator's
   * `complained@`; a real complaint arrives later, by a feedback report or a provider event).
   */
  complaint?: { feedbackType: string };
  /** The named provider that answered; set by the router. */
  provider?: string;
}

export interface Provider {
  readonly name: string;
  deliver(job: DeliveryJob): Promise<DeliveryResult>;
  close(): Promise<void>;
}
