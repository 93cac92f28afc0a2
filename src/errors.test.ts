import { describe, expect, test } from "bun:test";
import { AppError, ERROR_NAMES, ERROR_TABLE, toAppError } from "./errors.ts";

const CONTRACT: Record<string, [number, number | null]> = {
  validation_error: [400, 501],
  invalid_idempotency_key: [400, null],
  unauthorized: [401, 535],
  insufficient_scope: [403, 550],
  not_found: [404, null],
  method_not_allowed: [405, null],
  // The relay honours an Idempotency-Key header too: a reused key with another message fails for good, one in
  // flight is worth retrying.
  invalid_idempotent_request: [409, 550],
  concurrent_idempotent_requests: [409, 451],
  conflict: [409, null],
  payload_too_large: [413, 552],
  domain_not_verified: [422, 550],
  rate_limit_exceeded: [429, 451],
  daily_quota_exceeded: [429, 452],
  gone: [410, null],
  internal_error: [500, 451],
  service_unavailable: [503, 421],
};

describe("the error table", () => {
  test("holds exactly the names of the contract", () => {
    expect([...ERROR_NAMES].sort() as string[]).toEqual(Object.keys(CONTRACT).sort());
  });

  test.each(Object.entries(CONTRACT))("%s has its HTTP status and SMTP reply", (name, [status, smtp]) => {
    const entry = ERROR_TABLE[name as keyof typeof ERROR_TABLE];
    expect(entry.status).toBe(status);
    expect(entry.reason.length).toBeGreaterThan(0);
    if (smtp !== null) expect(entry.smtp.code).toBe(smtp);
    // Every name has a well-formed SMTP reply whose class agrees with its enhanced code (RFC 3463).
    expect(entry.smtp.code).toBeGreaterThanOrEqual(400);
    expect(entry.smtp.enhanced[0]).toBe(String(entry.smtp.code)[0]);
  });

  test("errors that cannot arise over SMTP map to a temporary reply, never a bounce", () => {
    for (const [name, [, smtp]] of Object.entries(CONTRACT)) {
      if (smtp === null) expect(ERROR_TABLE[name as keyof typeof ERROR_TABLE].smtp.code).toBeLessThan(500);
    }
  });

  test("an unknown error becomes a temporary internal_error that says nothing of its cause", () => {
    const error = toAppError(new Error("SQLITE_CORRUPT: database disk image is malformed at /var/lib/x.db"));
    expect(error.name).toBe("internal_error");
    expect(error.temporary).toBe(true);
    expect(error.message).not.toContain("SQLITE");
    expect(ERROR_TABLE[error.name].smtp).toEqual({ code: 451, enhanced: "4.3.0" });
  });

  test("temporary is derived from the SMTP class", () => {
    expect(new AppError("rate_limit_exceeded", "x").temporary).toBe(true);
    expect(new AppError("domain_not_verified", "x").temporary).toBe(false);
  });
});
