/**
 * A real OpenID provider for the tests (the npm package oidc-provider, run by Node on loopback): its development
 * login form takes any login — the login is the account id — and each account's claims come from ACCOUNTS below.
 * The tests reach past it in one place only: POST /__tamper {mode} makes the token endpoint's next answers carry an
 * ID token changed after the provider made it — re-signed with the provider's own key (a wrong audience, an expired
 * token, a nonce used before) or with a key it does not publish (a forgery) — so that each of Mailroom's checks is
 * shown to refuse what a real provider, or someone in between, could send.
 *
 * Started as `node oidc-provider.mjs <client_id> <client_secret> <redirect_uri>`; prints its issuer URL on stdout.
 */
import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import { importJWK, SignJWT, decodeJwt, decodeProtectedHeader } from "jose";
import Provider from "oidc-provider";

const [clientId, clientSecret, redirectUri] = process.argv.slice(2);

const ACCOUNTS = {
  unverified: { email: "unverified@example.com", email_verified: false, name: "Una Verified" },
  "no-email": { name: "No Email" },
  outsider: { email: "outsider@elsewhere.test", email_verified: true, name: "Out Sider" },
};
const claimsOf = (id) =>
  ACCOUNTS[id] ?? {
    // Any other login is <local>[+role] and signs in as <local>@example.com, verified; "+admin" gives that role claim.
    email: `${id.split("+")[0]}@example.com`,
    email_verified: true,
    name: id.split("+")[0],
    ...(id.includes("+") ? { mailroom_role: [id.split("+")[1]] } : {}),
  };

const signing = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
signing.kid = "test-key";
signing.alg = "RS256";
signing.use = "sig";
const forger = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });

const server = createServer();
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri.replace(":*", "")],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    },
  ],
  jwks: { keys: [signing] },
  findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, ...claimsOf(id) }) }),
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "mailroom_role"] },
  // Email and name in the ID token itself, as Google, Entra ID and Keycloak put them.
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  features: { devInteractions: { enabled: true } },
  // Consent is given for the client once and for all: the tests are about Mailroom, not the consent screen.
  loadExistingGrant: async (ctx) => {
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope("openid email profile");
    grant.addOIDCClaims(["email", "email_verified", "name", "mailroom_role"]);
    await grant.save();
    return grant;
  },
  cookies: { keys: ["a test provider's cookie key"] },
});

let tamper = "none";
let lastNonce = null;
const key = await importJWK(signing, "RS256");
const forgedKey = await importJWK(forger, "RS256");

provider.use(async (ctx, next) => {
  if (ctx.path === "/__tamper" && ctx.method === "POST") {
    const chunks = [];
    for await (const chunk of ctx.req) chunks.push(chunk);
    tamper = JSON.parse(Buffer.concat(chunks).toString()).mode;
    ctx.body = { tamper };
    return;
  }
  await next();
  if (ctx.path !== "/token" || ctx.status !== 200 || !ctx.body?.id_token) return;
  const claims = decodeJwt(ctx.body.id_token);
  const previousNonce = lastNonce;
  lastNonce = claims.nonce;
  if (tamper === "none") return;
  const now = Math.floor(Date.now() / 1000);
  const changed = { ...claims };
  if (tamper === "wrong_audience") changed.aud = "another-client";
  if (tamper === "expired") Object.assign(changed, { iat: now - 7200, exp: now - 3600 });
  if (tamper === "replayed_nonce") changed.nonce = previousNonce;
  const header = decodeProtectedHeader(ctx.body.id_token);
  ctx.body = {
    ...ctx.body,
    id_token: await new SignJWT(changed).setProtectedHeader(header).sign(tamper === "forged" ? forgedKey : key),
  };
});

// A redirect URI with a port of "*" stands for Mailroom on any loopback port: a browser test learns its port only
// once the server listens, after the provider must be running.
if (redirectUri.includes(":*/")) {
  const pattern = new RegExp(`^${redirectUri.replace(/[.?]/g, "\\$&").replace(":*/", ":\\d+/")}$`);
  provider.Client.prototype.redirectUriAllowed = (uri) => pattern.test(uri);
}

server.on("request", provider.callback());
process.stdout.write(`${issuer}\n`);
