/**
 * Builds the delivery providers the configuration names (capture, smarthost, direct MX, SES): each one's options
 * checked with the config path a person edits, and every provider that hands mail to the internet wrapped so the
 * mail is DKIM-signed and given its return path (domains/signing.ts).
 */
import { ConfigError } from "../lib/config-error.ts";
import { PROVIDER_KINDS, type Config, type ProviderConfig, type ProviderKind } from "../config/options.ts";
import { providerConfigs } from "../config/providers.ts";
import { withSigning, type OutgoingSigner } from "../domains/signing.ts";
import type { Clock } from "../lib/clock.ts";
import type { DnsResolver } from "../lib/dns.ts";
import { createEndpointGuard } from "../lib/endpoint-guard.ts";
import type { Logger } from "../lib/logger.ts";
import { createCaptureProvider } from "../providers/capture.ts";
import { createMtaSts, type SharedPolicyCache } from "../providers/mta-sts.ts";
import { getServers } from "node:dns";
import { createDane, probeValidation } from "../providers/dane.ts";
import { createMxProvider, type TlsSession } from "../providers/mx.ts";
import type { SendingIps } from "../providers/sending-ips.ts";
import { createSesProvider } from "../providers/ses.ts";
import { createSmtpProvider } from "../providers/smtp.ts";
import type { Provider } from "../providers/types.ts";

/** Where a provider option is set, for errors: `[smarthost] host` for the built-in, `[providers.relay] host` otherwise. */
const optionPath = (name: string, kind: ProviderKind, key: string) =>
  name === kind ? `${PROVIDER_KINDS[kind]}.${key}` : `providers.${name}.${key}`;

/** Builds one provider; mail leaving through smtp, mx and ses is DKIM-signed and gets its return path (domains/signing.ts). */
export function buildProvider(
  name: string,
  provider: ProviderConfig,
  config: Config,
  deps: {
    resolver: DnsResolver;
    signer: OutgoingSigner;
    logger: Logger;
    clock: Clock;
    hostname: string;
    /** Where MTA-STS policies are cached for every instance (docs/deliverability.md). */
    mtaStsCache: SharedPolicyCache;
    /** Hears direct delivery's TLS negotiations, for TLS reports (docs/deliverability.md). */
    tlsSessions: (session: TlsSession) => void;
    /** IP pools, warm-up and shaping of direct delivery (docs/deliverability.md). */
    sendingIps: SendingIps;
    mxCa?: string;
  },
): Provider {
  const ehloName = config.mx.ehlo_name || deps.hostname;
  switch (provider.kind) {
    case "capture":
      return createCaptureProvider();
    case "ses": {
      const missing = (["region", "access_key_id", "secret_access_key"] as const).find((key) => !provider[key]);
      if (missing) throw new ConfigError(`${optionPath(name, "ses", missing)}: required for the SES provider ${name}`);
      return withSigning(
        createSesProvider({
          region: provider.region,
          accessKeyId: provider.access_key_id,
          secretAccessKey: provider.secret_access_key,
          sessionToken: provider.session_token || undefined,
          configurationSet: provider.configuration_set || undefined,
          endpoint: provider.endpoint || undefined,
          timeoutMs: provider.timeout,
          logger: deps.logger,
        }),
        deps.signer,
      );
    }
    case "mx":
      return withSigning(
        createMxProvider({
          resolver: deps.resolver,
          ehloName: provider.ehlo_name || ehloName,
          port: provider.port,
          maxConnectionsPerDomain: provider.max_connections_per_domain,
          connectTimeoutMs: provider.connect_timeout,
          socketTimeoutMs: provider.socket_timeout,
          allowPrivateNetworks: provider.allow_private_networks,
          mtaSts: provider.mta_sts
            ? createMtaSts({
                resolver: deps.resolver,
                shared: deps.mtaStsCache,
                guard: createEndpointGuard({
                  resolver: deps.resolver,
                  allowPrivateNetworks: provider.allow_private_networks,
                  hint: `MTA-STS policy servers must be public (set ${optionPath(name, "mx", "allow_private_networks")} = true for test servers)`,
                }),
                clock: deps.clock,
                logger: deps.logger,
                fetchTimeoutMs: provider.connect_timeout,
                port: provider.mta_sts_port,
                ca: deps.mxCa,
              })
            : undefined,
          // The resolver must validate DNSSEC for this to mean anything: app.ts probes it at start.
          dane:
            provider.dane === "on"
              ? createDane({ servers: config.dns.servers, timeoutMs: Math.min(provider.connect_timeout, 5_000) })
              : undefined,
          tlsCa: deps.mxCa,
          tlsSessions: deps.tlsSessions,
          sendingIps: deps.sendingIps,
          logger: deps.logger,
        }),
        deps.signer,
      );
    case "smtp":
      if (!provider.host)
        throw new ConfigError(`${optionPath(name, "smtp", "host")}: required for the smarthost provider ${name}`);
      return withSigning(
        createSmtpProvider({
          host: provider.host,
          port: provider.port,
          security: provider.security as "starttls" | "tls" | "none",
          username: provider.username,
          password: provider.password,
          poolSize: provider.pool_size,
          connectTimeoutMs: provider.connect_timeout,
          socketTimeoutMs: provider.socket_timeout,
          tlsRejectUnauthorized: provider.tls_reject_unauthorized,
          ehloName,
        }),
        deps.signer,
      );
  }
}

/**
 * Refuses to start when a provider asks for DANE and `[dns] servers` does not validate DNSSEC: TLSA answers the
 * resolver did not validate are anyone's, and DANE on them would be worse than none (docs/deliverability.md#dane).
 */
export async function assertDaneResolver(config: Config, timeoutMs = 5_000): Promise<void> {
  for (const [name, provider] of providerConfigs(config)) {
    if (provider.kind !== "mx" || provider.dane !== "on") continue;
    const resolver = config.dns.servers.length
      ? `the resolver ${config.dns.servers.join(", ")} ([dns] servers)`
      : `the system's resolver (${getServers().join(", ")})`;
    const reason = await probeValidation(config.dns.servers, provider.dane_probe, timeoutMs);
    if (reason)
      throw new ConfigError(
        `${optionPath(name, "mx", "dane")} = "on" needs a DNSSEC-validating resolver, but ${resolver}: ${reason}. ` +
          `Point [dns] servers at a validating resolver (e.g. unbound on 127.0.0.1), or set ${optionPath(name, "mx", "dane")} = "off".`,
      );
  }
}
