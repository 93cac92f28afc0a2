/** `mailroom.apiKeys`: create (the token is shown once), list, rename, revoke (docs/keys-and-limits.md). */
import { segment, type Transport } from "./http.js";
import { missing } from "./results.js";
import type {
  ApiKey,
  CreateApiKeyOptions,
  CreateApiKeyResponse,
  Deleted,
  List,
  ListApiKeysOptions,
  MailroomResponse,
  RequestOptions,
  UpdateApiKeyOptions,
} from "./types.js";

export class ApiKeys {
  constructor(private readonly transport: Transport) {}

  /** Answers `{id, token}`: keep the token, it is never shown again. */
  async create(
    payload: CreateApiKeyOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<CreateApiKeyResponse>> {
    return this.transport.request({ ...options, method: "POST", path: "/api-keys", body: payload });
  }

  /** Active keys, newest first (`include_revoked` adds revoked ones). */
  async list(
    options: ListApiKeysOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<ApiKey>>> {
    const { limit, after, before, include_revoked } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: "/api-keys",
      query: { limit, after, before, include_revoked },
    });
  }

  /** Renames a key. */
  async update(
    id: string,
    payload: UpdateApiKeyOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<{ object: "api_key"; id: string }>> {
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "PATCH", path: `/api-keys/${segment(id)}`, body: payload })
    );
  }

  /** Revokes a key: requests with it are 401 from now on. */
  async remove(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Deleted<"api_key">>> {
    return (
      missing(id, "id") ?? this.transport.request({ ...options, method: "DELETE", path: `/api-keys/${segment(id)}` })
    );
  }
}
