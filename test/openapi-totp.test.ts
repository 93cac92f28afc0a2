/**
 * The contract says what a route needs (issue 48, docs/teams.md#two-step-sign-in): turning TOTP on, off, or
 * replacing the recovery codes needs the person's current password again, and /openapi.json — the document the
 * clients and /docs are made from — says so in the operation's description and its body's required `password`,
 * beside the 401 a wrong one gives.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";

let t: TestApp;
let paths: Record<string, Record<string, any>>;

beforeAll(async () => {
  t = await createTestApp();
  paths = (await t.json("GET", "/openapi.json", { key: null })).body.paths;
});
afterAll(() => t?.close());

const ROUTES = ["/v1/me/totp", "/v1/me/totp/disable", "/v1/me/totp/recovery-codes"];

test.each(ROUTES)("POST %s says it needs the current password", (path) => {
  const operation = paths[path]!.post;
  expect(operation.description).toMatch(/current password/i);
  const body = operation.requestBody.content["application/json"].schema;
  expect(body.required).toEqual(["password"]);
  expect(body.properties.password.description).toMatch(/current password/i);
  expect(operation.responses["401"]).toBeDefined();
});
