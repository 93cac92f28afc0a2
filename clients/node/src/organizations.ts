/**
 * `mailroom.organizations`: the organisations the caller acts in (docs/teams.md). An API key acts in one, its own, so
 * the list holds that one; it needs the `organization:read` scope (`full_access` has it). Creating an organisation is
 * for instance admins signed in to the admin UI (or `mailroom org create` at the command line), not for API keys,
 * so the client offers no `create`.
 */
import type { Transport } from "./http.js";
import type { List, MailroomResponse, OrganizationMembership, RequestOptions } from "./types.js";

export class Organizations {
  constructor(private readonly transport: Transport) {}

  /** The organisations the caller acts in, each with the caller's `role` there: for an API key, its own. */
  async list(options: RequestOptions = {}): Promise<MailroomResponse<List<OrganizationMembership>>> {
    return this.transport.request({ ...options, method: "GET", path: "/organizations" });
  }
}
