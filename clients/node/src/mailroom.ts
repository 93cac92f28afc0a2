/**
 * The client: `new Mailroom(key, { baseUrl })`, with one property per resource as in Resend's Node SDK
 * (`emails`, `batch`, `domains`, `apiKeys`, `webhooks`, `templates`, `contacts`, `contactProperties`, `segments` and
 * its older name `audiences`, `topics`, `broadcasts`, `logs`, `usage`) plus Mailroom's own (`suppressions`,
 * `deliveries`, `sending`, `ipPools`, `organization`, `organizations`, `members`, `auditLog`, `ai`,
 * `emails.receiving` with its `routes`). Every method resolves to `{ data, error, headers }` and never rejects for an API failure.
 */
import { Ai } from "./ai.js";
import { ApiKeys } from "./api-keys.js";
import { ContactProperties, Segments, Topics } from "./audiences.js";
import { AuditLog } from "./audit-log.js";
import { Broadcasts } from "./broadcasts.js";
import { Contacts } from "./contacts.js";
import { Deliveries } from "./deliveries.js";
import { Domains } from "./domains.js";
import { Batch, Emails } from "./emails.js";
import { envOf, Transport, type ClientOptions } from "./http.js";
import { IpPools } from "./ip-pools.js";
import { Logs, Usage } from "./logs.js";
import { Members } from "./members.js";
import { OrganizationSettings } from "./organization.js";
import { Organizations } from "./organizations.js";
import { Sending } from "./sending.js";
import { Suppressions } from "./suppressions.js";
import { Templates } from "./templates.js";
import { Webhooks } from "./webhooks.js";

export class Mailroom {
  readonly emails: Emails;
  readonly batch: Batch;
  readonly domains: Domains;
  readonly apiKeys: ApiKeys;
  readonly webhooks: Webhooks;
  readonly suppressions: Suppressions;
  readonly deliveries: Deliveries;
  readonly sending: Sending;
  readonly ipPools: IpPools;
  readonly organization: OrganizationSettings;
  readonly organizations: Organizations;
  readonly members: Members;
  readonly auditLog: AuditLog;
  readonly templates: Templates;
  readonly ai: Ai;
  readonly contacts: Contacts;
  readonly contactProperties: ContactProperties;
  readonly segments: Segments;
  /** Resend's older name of `segments`: the same resource. */
  readonly audiences: Segments;
  readonly topics: Topics;
  readonly broadcasts: Broadcasts;
  readonly logs: Logs;
  readonly usage: Usage;

  /** `key` defaults to `MAILROOM_API_KEY`; a client without a key is a programming error and throws. */
  constructor(key?: string, options: ClientOptions = {}) {
    const apiKey = key ?? envOf("MAILROOM_API_KEY");
    if (!apiKey)
      throw new Error(
        'Missing API key: pass it to the constructor, `new Mailroom("mr_live_…")`, or set MAILROOM_API_KEY.',
      );
    const transport = new Transport(apiKey, options);
    this.emails = new Emails(transport);
    this.batch = new Batch(transport);
    this.domains = new Domains(transport);
    this.apiKeys = new ApiKeys(transport);
    this.webhooks = new Webhooks(transport);
    this.suppressions = new Suppressions(transport);
    this.deliveries = new Deliveries(transport);
    this.sending = new Sending(transport);
    this.ipPools = new IpPools(transport);
    this.organization = new OrganizationSettings(transport);
    this.organizations = new Organizations(transport);
    this.members = new Members(transport);
    this.auditLog = new AuditLog(transport);
    this.templates = new Templates(transport);
    this.ai = new Ai(transport);
    this.contacts = new Contacts(transport);
    this.contactProperties = new ContactProperties(transport);
    this.segments = new Segments(transport);
    this.audiences = this.segments;
    this.topics = new Topics(transport);
    this.broadcasts = new Broadcasts(transport);
    this.logs = new Logs(transport);
    this.usage = new Usage(transport);
  }
}
