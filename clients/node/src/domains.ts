/**
 * `mailroom.domains`: sending domains, their DNS records and checks (docs/domains.md), with Resend's method names, and the
 * DMARC aggregate reports receivers sent about each (docs/deliverability.md).
 */
import { segment, type Transport } from "./http.js";
import { missing } from "./results.js";
import type {
  CreateDomainOptions,
  DmarcReport,
  DmarcReportRow,
  DmarcSummary,
  DmarcSummaryOptions,
  Domain,
  DomainDeleted,
  List,
  ListDmarcReportsOptions,
  MailroomResponse,
  PaginationOptions,
  RemoveDomainOptions,
  RequestOptions,
  UpdateDomainOptions,
} from "./types.js";

export class Domains {
  constructor(private readonly transport: Transport) {}

  /** Adds a domain; the answer lists the DNS records to publish. */
  async create(payload: CreateDomainOptions, options: RequestOptions = {}): Promise<MailroomResponse<Domain>> {
    return this.transport.request({ ...options, method: "POST", path: "/domains", body: payload });
  }

  /** By id or name, with each record's status and what DNS answered. */
  async get(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Domain>> {
    return missing(id, "id") ?? this.transport.request({ ...options, method: "GET", path: `/domains/${segment(id)}` });
  }

  async list(
    options: PaginationOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<Domain>>> {
    const { limit, after, before } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: "/domains",
      query: { limit, after, before },
    });
  }

  /**
   * Tracking defaults, return-path subdomain, receiving, providers; the tracking host (`tracking_subdomain: "links"`
   * adds the CNAME of links.<domain>, `null` removes it), the TLS policy (`tls: "enforced"`), an Ed25519 DKIM key
   * beside the RSA one (`dkim: { ed25519: true }`, `false` retires it) and the IP pool direct delivery sends from
   * (`ip_pool: "main"`, a configured `[ip_pools.<name>]`, else `validation_error`; `null` for none).
   */
  async update(payload: UpdateDomainOptions, options: RequestOptions = {}): Promise<MailroomResponse<Domain>> {
    const { id, ...settings } = payload;
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "PATCH", path: `/domains/${segment(id)}`, body: settings })
    );
  }

  /** Checks the DNS records now. */
  async verify(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Domain>> {
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "POST", path: `/domains/${segment(id)}/verify` })
    );
  }

  /** Starts a DKIM key rotation: the answer's records include the new selector to publish. */
  async rotateDkim(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Domain>> {
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "POST", path: `/domains/${segment(id)}/dkim/rotate` })
    );
  }

  /**
   * The DMARC aggregate reports receivers sent about the domain (to the `rua` of its suggested DMARC record), newest
   * first; `after` a report's id continues towards older ones, `before` one back towards newer ones. Each carries
   * its first 20 rows and its `row_count`. Empty until the domain is verified.
   */
  async dmarcReports(
    id: string,
    options: ListDmarcReportsOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<DmarcReport>>> {
    const { limit, after, before } = options;
    return (
      missing(id, "id") ??
      this.transport.request({
        ...requestOptions,
        method: "GET",
        path: `/domains/${segment(id)}/dmarc`,
        query: { limit, after, before },
      })
    );
  }

  /** The rows of one DMARC report, page by page: `after` a row's id continues, `before` one goes back. */
  async dmarcReportRows(
    id: string,
    reportId: string,
    options: PaginationOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<DmarcReportRow>>> {
    const { limit, after, before } = options;
    return (
      missing(id, "id") ??
      missing(reportId, "reportId") ??
      this.transport.request({
        ...requestOptions,
        method: "GET",
        path: `/domains/${segment(id)}/dmarc/${segment(reportId)}/rows`,
        query: { limit, after, before },
      })
    );
  }

  /**
   * "Who sends as you": the reports of the last `days` (1–90, default 7) summed per source address — messages, the
   * share that passed DMARC aligned, and whether the address is one of Mailroom's.
   */
  async dmarcSummary(
    id: string,
    options: DmarcSummaryOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<DmarcSummary>> {
    return (
      missing(id, "id") ??
      this.transport.request({
        ...requestOptions,
        method: "GET",
        path: `/domains/${segment(id)}/dmarc/summary`,
        query: { days: options.days },
      })
    );
  }

  /** Refused (409 conflict) while mail from the domain is queued, unless `force`. */
  async remove(
    id: string,
    options: RemoveDomainOptions & RequestOptions = {},
  ): Promise<MailroomResponse<DomainDeleted>> {
    const { force, ...requestOptions } = options;
    return (
      missing(id, "id") ??
      this.transport.request({ ...requestOptions, method: "DELETE", path: `/domains/${segment(id)}`, query: { force } })
    );
  }
}
