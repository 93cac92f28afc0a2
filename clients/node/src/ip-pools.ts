/**
 * `mailroom.ipPools`: the server's IP pools for direct delivery (docs/deliverability.md, `[ip_pools.<name>]`), which a domain names
 * with `domains.update({ id, ip_pool })`. Reading needs the `domains:read` scope (`full_access` has it).
 */
import type { Transport } from "./http.js";
import type { IpPoolList, MailroomResponse, RequestOptions } from "./types.js";

export class IpPools {
  constructor(private readonly transport: Transport) {}

  /**
   * Every configured pool with each address's warm-up day and today's cap, today's messages per destination provider,
   * and the providers whose rate is halved after throttling. Empty when the server configures none.
   */
  async list(options: RequestOptions = {}): Promise<MailroomResponse<IpPoolList>> {
    return this.transport.request({ ...options, method: "GET", path: "/ip-pools" });
  }
}
