/**
 * Checks a received message the way a receiving MTA would, with mailauth against the test DNS server: DKIM,
 * SPF for the envelope sender as seen from 127.0.0.1, and DMARC with its alignment.
 */
import { authenticate } from "mailauth";
import { createResolver, resolveFunction } from "../../src/lib/dns.ts";

export interface AuthVerdict {
  dkim: string | undefined;
  dkimDomain: string | undefined;
  spf: string | undefined;
  spfDomain: string | undefined;
  dmarc: string | undefined;
  /** The domains DMARC found aligned (relaxed), or false. */
  spfAligned: string | false | undefined;
  dkimAligned: string | false | undefined;
}

export async function checkAuthentication(
  raw: Buffer,
  envelope: { mailFrom: string; dnsServers: string[]; ip?: string },
): Promise<AuthVerdict> {
  const resolver = resolveFunction(createResolver(envelope.dnsServers, { timeoutMs: 2000, tries: 1 }));
  const result = await authenticate(raw, {
    ip: envelope.ip ?? "127.0.0.1",
    helo: "mail.mailroom.test",
    sender: envelope.mailFrom,
    mta: "mx.receiver.test",
    resolver,
    disableArc: true,
    disableBimi: true,
  });
  const dkim = result.dkim.results[0];
  const dmarc = result.dmarc || undefined;
  return {
    dkim: dkim?.status.result,
    dkimDomain: dkim?.signingDomain,
    spf: result.spf ? result.spf.status.result : undefined,
    spfDomain: result.spf ? result.spf.domain : undefined,
    dmarc: dmarc?.status.result,
    spfAligned: dmarc?.alignment?.spf?.result,
    dkimAligned: dmarc?.alignment?.dkim?.result,
  };
}
