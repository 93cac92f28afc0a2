/**
 * Direct delivery's TLS negotiations as TLS reports count them (RFC 8460, docs/deliverability.md#tls-reporting): one
 * session's policy and result, and the result type of a failed handshake from what Node or nodemailer said.
 */
import type { MtaStsPolicy } from "./mta-sts.ts";
import type { TlsResultType } from "./tls-report.ts";

/** One TLS negotiation with an MX host as RFC 8460 counts it. */
export interface TlsSession {
  policyDomain: string;
  policy: MtaStsPolicy | null;
  /** The DNSSEC-secure TLSA records that applied (RFC 7672), in presentation form: then the policy type is tlsa. */
  tlsa?: string[];
  mxHost: string;
  receivingIp: string;
  /** The local address the session left from, when the socket got one. */
  sendingIp: string | null;
  result: "success" | TlsResultType;
  /** What failed, in words (RFC 8460's failure-reason-code). */
  failureReason?: string;
}

/** RFC 8460 §4.3's result type of a failed verified handshake, from what Node or nodemailer said. */
export function tlsFailureType(error: { code?: string; message?: string }): TlsResultType {
  const said = `${error.code ?? ""} ${error.message ?? ""}`;
  if (/STARTTLS/i.test(said) && !/certificate/i.test(said)) return "starttls-not-supported";
  if (/ALTNAME|hostname|host name|does not match/i.test(said)) return "certificate-host-mismatch";
  if (/EXPIRED/i.test(said)) return "certificate-expired";
  if (/SELF_SIGNED|self.signed|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|untrusted|unknown ca/i.test(said))
    return "certificate-not-trusted";
  return "validation-failure";
}
