/**
 * Amazon SES (API v2, `SendEmail` with `Content.Raw`): the stored MIME message, already DKIM-signed by Mailroom,
 * handed to SES for one recipient, signed with SigV4 (aws4fetch: a few kilobytes, instead of the AWS SDK).
 *
 * Mailroom signs rather than SES's Easy DKIM alone: one DKIM setup serves every provider a domain fails over to, and
 * SES adds its own signature on top when Easy DKIM is on. SES's answer is `sent` (it delivers further); what
 * happens next arrives as SES events through SNS.
 * Invariant: only SES rejecting the message itself is permanent (`MessageRejected`, `MailFromDomainNotVerified`,
 * a malformed request); throttling, SES's 5xx, the account's or the credentials' problems and network faults are
 * temporary — the message is not at fault, and the operator can fix the cause while it waits.
 */
import { AwsClient } from "aws4fetch";
import { readCappedText } from "../lib/capped-body.ts";
import type { Logger } from "../lib/logger.ts";
import type { DeliveryResult, Provider } from "./types.ts";

export interface SesProviderOptions {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  configurationSet?: string;
  /** Replaces `https://email.<region>.amazonaws.com` (tests, VPC endpoints). */
  endpoint?: string;
  timeoutMs: number;
  logger: Logger;
}

/** SES's answers are a few hundred bytes of JSON; one past this is not SES's. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** SES v2 error types that say the message itself is refused. */
const PERMANENT_ERRORS = new Set(["MessageRejected", "MailFromDomainNotVerifiedException", "BadRequestException"]);

/** The error type of an SES v2 answer: the `x-amzn-ErrorType` header (`Type:extra`), else the body's `__type`. */
function errorTypeOf(response: Response, body: Record<string, unknown>): string {
  const header = response.headers.get("x-amzn-errortype");
  const type = header ?? String(body.__type ?? body.code ?? "");
  return type.split(":")[0]!.split("#").at(-1)!;
}

export function createSesProvider(options: SesProviderOptions): Provider {
  const aws = new AwsClient({
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    sessionToken: options.sessionToken,
    service: "ses",
    region: options.region,
  });
  const url = `${(options.endpoint || `https://email.${options.region}.amazonaws.com`).replace(/\/+$/, "")}/v2/email/outbound-emails`;

  return {
    name: "ses",
    async deliver(job): Promise<DeliveryResult> {
      const body = JSON.stringify({
        Destination: { ToAddresses: [job.recipient] },
        Content: { Raw: { Data: job.raw.toString("base64") } },
        ...(options.configurationSet && { ConfigurationSetName: options.configurationSet }),
      });
      let response: Response;
      let answer: Record<string, unknown>;
      try {
        const request = await aws.sign(url, { method: "POST", headers: { "content-type": "application/json" }, body });
        response = await fetch(request, { signal: AbortSignal.timeout(options.timeoutMs), redirect: "error" });
        const text = await readCappedText(response, MAX_ANSWER_BYTES);
        try {
          answer = JSON.parse(text) as Record<string, unknown>;
        } catch {
          answer = { message: text.slice(0, 200) };
        }
      } catch (error) {
        return {
          outcome: "temporary",
          response: `SES could not be reached: ${(error as Error).message}`,
          providerFault: true,
        };
      }
      if (response.ok && typeof answer.MessageId === "string") {
        options.logger.debug("handed to SES", { delivery_id: job.deliveryId, ses_message_id: answer.MessageId });
        return {
          outcome: "sent",
          response: `SES accepted the message as ${answer.MessageId}`,
          providerMessageId: answer.MessageId,
        };
      }
      const type = errorTypeOf(response, answer) || `HTTP ${response.status}`;
      const message = String(answer.message ?? answer.Message ?? "").slice(0, 500);
      const reply = `SES ${response.status} ${type}${message ? `: ${message}` : ""}`;
      if (response.status < 500 && PERMANENT_ERRORS.has(type))
        return { outcome: "permanent", subType: "General", response: reply };
      const retryAfter = Number(response.headers.get("retry-after"));
      // SES judges a message at once, so every other failure (throttling, quotas, its 5xx, credentials) is its own.
      return {
        outcome: "temporary",
        response: reply,
        providerFault: true,
        ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
      };
    },
    async close() {},
  };
}
