/**
 * `mailroom.organization`: the organisation's settings (docs/operations.md) — its name, request limit, daily quota and
 * retention — read with today's usage, what it stores and whether its sending is paused. Reading needs the
 * `organization:read` scope, changing `organization:write` (`full_access` has both).
 */
import type { Transport } from "./http.js";
import type { MailroomResponse, Organization, RequestOptions, UpdateOrganizationOptions } from "./types.js";

export class OrganizationSettings {
  constructor(private readonly transport: Transport) {}

  /** The settings in force, today's usage against the daily quota, storage and whether sending is paused. */
  async get(options: RequestOptions = {}): Promise<MailroomResponse<Organization>> {
    return this.transport.request({ ...options, method: "GET", path: "/organization" });
  }

  /**
   * Changes the settings given and answers the organisation after the change. A null setting returns to the
   * server's configured default (`daily_quota`: no quota); an unknown field or a value out of range is a
   * `validation_error` and changes nothing.
   */
  async update(
    payload: UpdateOrganizationOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<Organization>> {
    return this.transport.request({ ...options, method: "PATCH", path: "/organization", body: payload });
  }
}
