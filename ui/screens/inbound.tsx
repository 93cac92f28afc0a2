/**
 * Inbound: the mail the MX received (list with cursor paging and polling, SPF/DKIM/DMARC verdicts and the sent
 * message each one answers) and one message's detail (header facts, authentication results, the answered message,
 * auto-reply kind, rspamd's spam verdict and the inbound route that decided, HTML preview, text, attachments, raw
 * download). Invariant: received HTML is untrusted mail from
 * anyone and is shown only through emails.tsx's Preview (a `sandbox=""` frame with remote resources taken out).
 */
import { useState } from "preact/hooks";
import { useCan } from "../access.ts";
import { api, query, type Page } from "../api.ts";
import { RawDownload } from "../download.tsx";
import { usePolled } from "../hooks.ts";
import { usePagedList } from "../paging.tsx";
import { Preview } from "../preview.tsx";
import { when } from "../format.ts";
import { Attachments } from "../attachments.tsx";
import type {
  EmailAttachment,
  ReceivedAttachment,
  ReceivedEmail,
  ReceivedEmailAuthentication,
  ReceivedEmailSummary,
} from "../../clients/node/src/types.ts";
import { Alert } from "../alert.tsx";
import { Empty } from "../empty.tsx";
import { PageHeader } from "../page-header.tsx";

type Authentication = ReceivedEmailAuthentication;
type Attachment = Pick<ReceivedAttachment, "id" | "filename" | "content_type" | "content_disposition" | "size">;
type ReceivedSummary = Pick<
  ReceivedEmailSummary,
  | "id"
  | "from"
  | "to"
  | "cc"
  | "reply_to"
  | "received_for"
  | "subject"
  | "created_at"
  | "message_id"
  | "attachments"
  | "in_reply_to_email_id"
  | "auto_reply"
  | "authentication"
  | "spam"
  | "route_id"
>;
type ReceivedRecord = ReceivedSummary & Pick<ReceivedEmail, "html" | "text" | "headers">;
/** An attachment with its signed link: it works without the API key, for an hour. */
type AttachmentLink = Attachment & Pick<EmailAttachment, "download_url">;

const AUTO_REPLY: Record<NonNullable<ReceivedSummary["auto_reply"]>, string> = {
  auto_reply: "Yes: an automatic reply (out of office or similar)",
  challenge_response: "Yes: a challenge-response system asking the sender to confirm",
};

/** One verdict per check. DKIM passes when any signature passes: a verifier may rely on any one valid signature (RFC 6376). */
function verdicts(auth: Authentication): Array<{ check: string; result: string }> {
  const dkim = auth.dkim.some((d) => d.result === "pass") ? "pass" : (auth.dkim[0]?.result ?? "none");
  return [
    { check: "SPF", result: auth.spf?.result ?? "none" },
    { check: "DKIM", result: dkim },
    { check: "DMARC", result: auth.dmarc?.result ?? "none" },
  ];
}

/** pass and fail are what a reader acts on; neutral, none and the error results stay grey. */
const resultClass = (result: string) =>
  result === "pass" ? "auth-pass" : result === "fail" || result === "softfail" ? "auth-fail" : "auth-other";

function Verdict({ result, label }: { result: string; label: string }) {
  return <span class={`status ${resultClass(result)}`}>{label}</span>;
}

function AuthBadges({ auth }: { auth: Authentication }) {
  return (
    <span class="auth-badges">
      {verdicts(auth).map(({ check, result }) => (
        <Verdict key={check} result={result} label={`${check} ${result}`} />
      ))}
    </span>
  );
}

/**
 * rspamd's verdict (docs/inbound.md#spam-scoring): its score and action, coloured as a reader acts on it — no action
 * green, a reject red, anything between grey; "not scored" when no rspamd is configured or it did not answer.
 */
function SpamBadge({ spam }: { spam: ReceivedSummary["spam"] }) {
  if (!spam) return <span class="status auth-other">not scored</span>;
  const tone = spam.action === "no action" ? "auth-pass" : /reject/.test(spam.action) ? "auth-fail" : "auth-other";
  return <span class={`status ${tone}`}>{`spam ${spam.score.toFixed(1)} · ${spam.action}`}</span>;
}

export function InboundScreen({ id }: { id?: string }) {
  return id ? <InboundDetail id={id} /> : <InboundList />;
}

function InboundList() {
  const { data, error, pager } = usePagedList(
    (after) => api.get<Page<ReceivedSummary>>(`/v1/emails/receiving${query({ limit: 20, after })}`),
    [],
  );
  const canReadSent = useCan("emails:read");

  return (
    <section aria-labelledby="inbound-title">
      <PageHeader
        id="inbound-title"
        title="Inbound"
        description="Mail the MX received for domains with receiving on. Bounces and complaints to return paths are in the sent email's timeline instead."
      />
      <Alert message={error} />
      {data && data.data.length === 0 && (
        <Empty title="Nothing received yet" first={{ label: "Turn on receiving for a domain", href: "#/domains" }}>
          Mail to a domain with receiving on arrives here, with its SPF, DKIM and DMARC verdicts, its attachments and
          the sent email it answers.
        </Empty>
      )}
      {data && data.data.length > 0 && (
        <div class="scroll">
          {/* Below 600 px each row is a block of labelled lines (style.css, table.stack): seven columns do not fit. */}
          <table class="list stack">
            <thead>
              <tr>
                <th scope="col">Subject</th>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">Received</th>
                <th scope="col">Authentication</th>
                <th scope="col">Spam</th>
                <th scope="col">Replies to</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((email) => (
                <tr key={email.id}>
                  <td data-label="Subject">
                    <a href={`#/inbound/${encodeURIComponent(email.id)}`}>{email.subject || "(no subject)"}</a>
                  </td>
                  <td data-label="From">{email.from}</td>
                  <td data-label="To">{email.to.join(", ")}</td>
                  <td data-label="Received">{when(email.created_at)}</td>
                  <td data-label="Authentication">
                    <AuthBadges auth={email.authentication} />
                  </td>
                  <td data-label="Spam">
                    <SpamBadge spam={email.spam} />
                  </td>
                  <td data-label="Replies to">
                    {email.in_reply_to_email_id === null ? (
                      "—"
                    ) : canReadSent ? (
                      <a href={`#/emails/${encodeURIComponent(email.in_reply_to_email_id)}`}>a sent email</a>
                    ) : (
                      "a sent email"
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pager}
    </section>
  );
}

/** Every attachment with its download link, following the cursor when there are more than a page. */
async function attachmentLinks(id: string): Promise<AttachmentLink[]> {
  const links: AttachmentLink[] = [];
  for (let after: string | undefined; ; ) {
    const page = await api.get<Page<AttachmentLink>>(
      `/v1/emails/receiving/${encodeURIComponent(id)}/attachments${query({ limit: 100, after })}`,
    );
    links.push(...page.data);
    if (!page.has_more || page.data.length === 0) return links;
    after = page.data.at(-1)!.id;
  }
}

function InboundDetail({ id }: { id: string }) {
  // Polled like the sent email's detail: the signed attachment links expire after an hour, so a page left open
  // keeps working links.
  const { data, error } = usePolled(async () => {
    const email = await api.get<ReceivedRecord>(`/v1/emails/receiving/${encodeURIComponent(id)}`);
    return { email, attachments: email.attachments.length ? await attachmentLinks(id) : [] };
  }, [id]);
  const canReadSent = useCan("emails:read");
  const [view, setView] = useState<"html" | "text">("html");

  const email = data?.email;
  const auth = email?.authentication;
  return (
    <section aria-labelledby="received-title">
      <p>
        <a href="#/inbound">← All received mail</a>
      </p>
      <Alert message={error} />
      {email && auth && (
        <>
          <PageHeader id="received-title" title={email.subject || "(no subject)"}>
            <RawDownload path={`/v1/emails/receiving/${encodeURIComponent(id)}/raw`} filename={`${id}.eml`} />
          </PageHeader>
          <dl class="facts">
            <dt>ID</dt>
            <dd>
              <code>{email.id}</code>
            </dd>
            <dt>From</dt>
            <dd>{email.from}</dd>
            <dt>To</dt>
            <dd>{email.to.join(", ") || "—"}</dd>
            {email.cc && email.cc.length > 0 && (
              <>
                <dt>Cc</dt>
                <dd>{email.cc.join(", ")}</dd>
              </>
            )}
            {email.reply_to && email.reply_to.length > 0 && (
              <>
                <dt>Reply-To</dt>
                <dd>{email.reply_to.join(", ")}</dd>
              </>
            )}
            <dt>Delivered to</dt>
            <dd>{email.received_for.join(", ")}</dd>
            <dt>Received</dt>
            <dd>{when(email.created_at)}</dd>
            {email.headers.Date && (
              <>
                <dt>Date header</dt>
                <dd>{email.headers.Date}</dd>
              </>
            )}
            <dt>Message-ID</dt>
            <dd>
              <code>{email.message_id ?? "—"}</code>
            </dd>
            <dt>Replies to</dt>
            <dd>
              {email.in_reply_to_email_id === null ? (
                "no message sent from here"
              ) : canReadSent ? (
                <a href={`#/emails/${encodeURIComponent(email.in_reply_to_email_id)}`}>
                  the sent email {email.in_reply_to_email_id}
                </a>
              ) : (
                <>
                  the sent email <code>{email.in_reply_to_email_id}</code>
                </>
              )}
            </dd>
            <dt>Auto-reply</dt>
            <dd>{email.auto_reply ? AUTO_REPLY[email.auto_reply] : "No"}</dd>
            <dt>Route</dt>
            <dd>
              {email.route_id === null ? (
                "none matched (stored)"
              ) : (
                <a href="#/routes">
                  inbound route <code>{email.route_id}</code>
                </a>
              )}
            </dd>
          </dl>

          <h2>Authentication</h2>
          <div class="scroll">
            <table class="list" aria-label="Authentication results">
              <thead>
                <tr>
                  <th scope="col">Check</th>
                  <th scope="col">Result</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">SPF</th>
                  <td>
                    <Verdict result={auth.spf?.result ?? "none"} label={auth.spf?.result ?? "none"} />
                  </td>
                  <td>{auth.spf?.domain ? `for ${auth.spf.domain}` : "—"}</td>
                </tr>
                {auth.dkim.length === 0 && (
                  <tr>
                    <th scope="row">DKIM</th>
                    <td>
                      <Verdict result="none" label="none" />
                    </td>
                    <td>no signature</td>
                  </tr>
                )}
                {auth.dkim.map((sig) => (
                  <tr key={`${sig.domain} ${sig.selector}`}>
                    <th scope="row">DKIM</th>
                    <td>
                      <Verdict result={sig.result} label={sig.result} />
                    </td>
                    <td>
                      {sig.domain ? `d=${sig.domain}` : "no domain"}
                      {sig.selector ? ` s=${sig.selector}` : ""}
                      {sig.aligned ? ", aligned with From" : ", not aligned with From"}
                    </td>
                  </tr>
                ))}
                <tr>
                  <th scope="row">DMARC</th>
                  <td>
                    <Verdict result={auth.dmarc?.result ?? "none"} label={auth.dmarc?.result ?? "none"} />
                  </td>
                  <td>
                    {auth.dmarc?.domain ? `for ${auth.dmarc.domain}` : "—"}
                    {auth.dmarc?.policy ? `, policy ${auth.dmarc.policy}` : ""}
                  </td>
                </tr>
                {auth.arc && (
                  <tr>
                    <th scope="row">ARC</th>
                    <td>
                      <Verdict result={auth.arc.result} label={auth.arc.result} />
                    </td>
                    <td>—</td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          {auth.header && (
            <details class="more">
              <summary>Authentication-Results header</summary>
              <pre class="text">{auth.header}</pre>
            </details>
          )}

          <h2>Spam</h2>
          {email.spam ? (
            <>
              <p>
                <SpamBadge spam={email.spam} /> rspamd scored it {email.spam.score.toFixed(2)}, action{" "}
                <strong>{email.spam.action}</strong>.
              </p>
              {email.spam.symbols.length > 0 && (
                <details class="more">
                  <summary>Rules that fired ({email.spam.symbols.length})</summary>
                  <div class="scroll">
                    <table class="list" aria-label="Spam rules">
                      <thead>
                        <tr>
                          <th scope="col">Rule</th>
                          <th scope="col">Score</th>
                        </tr>
                      </thead>
                      <tbody>
                        {email.spam.symbols.map((symbol) => (
                          <tr key={symbol.name}>
                            <th scope="row">
                              <code>{symbol.name}</code>
                            </th>
                            <td>{symbol.score}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                </details>
              )}
            </>
          ) : (
            <p class="hint">
              Not scored: no rspamd is configured (<code>[inbound] rspamd_url</code>), or it did not answer in time.
            </p>
          )}

          <h2>Content</h2>
          <div role="group" aria-label="Content view" class="tabs">
            <button
              type="button"
              aria-pressed={view === "html"}
              onClick={() => setView("html")}
              disabled={email.html === null}
            >
              HTML
            </button>
            <button type="button" aria-pressed={view === "text" || email.html === null} onClick={() => setView("text")}>
              Text
            </button>
          </div>
          {view === "html" && email.html !== null ? (
            <Preview html={email.html} />
          ) : (
            <pre class="text">{email.text ?? "(no text part)"}</pre>
          )}

          <h2>Attachments</h2>
          {data.attachments.length === 0 ? <p>None.</p> : <Attachments files={data.attachments} />}

          <details class="more">
            <summary>All headers ({Object.keys(email.headers).length})</summary>
            <div class="scroll">
              <table class="list headers">
                <tbody>
                  {Object.entries(email.headers).map(([name, value]) => (
                    <tr key={name}>
                      <th scope="row">{name}</th>
                      <td>{value}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </section>
  );
}
