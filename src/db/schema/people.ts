import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const ROLES = ["owner", "admin", "developer", "viewer"] as const;

/** A person who signs in (docs/teams.md); `email` is stored lower-cased. */
export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull(),
  name: text("name").notNull(),
  /** argon2id (Bun.password); null until a password is set. */
  passwordHash: text("password_hash"),
  /** May create organisations; the first user is one. */
  instanceAdmin: integer("instance_admin", { mode: "boolean" }).notNull().default(false),
  /** RFC 6238 secret, sealed; `totpPendingSecret` one enrolled but not yet confirmed by a code. */
  totpSecret: text("totp_secret"),
  totpPendingSecret: text("totp_pending_secret"),
  /** The time step of the last code accepted: a code works once. */
  totpLastStep: integer("totp_last_step"),
  /** The identity provider's issuer and subject (`iss sub`) of a person who signed in with SSO. */
  oidcSubject: text("oidc_subject"),
  /** When a link mailed to `email` was followed: single sign-on may then link this account by email. */
  emailProvenAt: text("email_proven_at"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const memberships = sqliteTable(
  "memberships",
  {
    organizationId: text("organization_id").notNull(),
    userId: text("user_id").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    createdAt: text("created_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.userId] })],
);

/** A signed-in browser: `id` is the SHA-256 of the cookie's token; times in epoch ms. */
export const sessions = sqliteTable("sessions", {
  id: text("id").primaryKey(),
  userId: text("user_id").notNull(),
  createdAt: integer("created_at").notNull(),
  lastSeenAt: integer("last_seen_at").notNull(),
  ip: text("ip"),
  userAgent: text("user_agent"),
});

/** A link that works once: the first start's setup, or a password to set; stored by the SHA-256 of its token. */
export const oneTimeLinks = sqliteTable("one_time_links", {
  tokenHash: text("token_hash").primaryKey(),
  purpose: text("purpose", { enum: ["setup", "password"] }).notNull(),
  userId: text("user_id"),
  /** Mailed to the person's address: following it proves the address is theirs. */
  provesEmail: integer("proves_email", { mode: "boolean" }).notNull().default(false),
  createdAt: text("created_at").notNull(),
  /** Epoch ms; null: until used (the setup link). */
  expiresAt: integer("expires_at"),
});

/** The audit log (docs/teams.md): append-only, one row per change or sign-in, never a secret. */
export const auditEvents = sqliteTable("audit_events", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id"),
  createdAt: text("created_at").notNull(),
  actorType: text("actor_type", { enum: ["user", "api_key", "cli", "system"] }).notNull(),
  actorId: text("actor_id"),
  actorName: text("actor_name"),
  action: text("action").notNull(),
  targetType: text("target_type"),
  targetId: text("target_id"),
  targetName: text("target_name"),
  ip: text("ip"),
  userAgent: text("user_agent"),
  changes: text("changes", { mode: "json" }).$type<Record<string, unknown> | null>(),
});

/** A one-time link to join an organisation (7 days); stored by the SHA-256 of its token. */
export const invitations = sqliteTable("invitations", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  email: text("email").notNull(),
  role: text("role", { enum: ROLES }).notNull(),
  tokenHash: text("token_hash").notNull(),
  invitedBy: text("invited_by"),
  createdAt: text("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
  acceptedAt: text("accepted_at"),
});

/** An unused recovery code of a person with TOTP, by its SHA-256; deleted when used. */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  { userId: text("user_id").notNull(), codeHash: text("code_hash").notNull() },
  (table) => [primaryKey({ columns: [table.userId, table.codeHash] })],
);

/** A single sign-on begun and not yet back from the identity provider, by the SHA-256 of its `state`. */
export const ssoAttempts = sqliteTable("sso_attempts", {
  id: text("id").primaryKey(),
  /** The SHA-256 of the cookie of the browser that began it: the callback must come back to that browser. */
  browserHash: text("browser_hash").notNull(),
  nonce: text("nonce").notNull(),
  codeVerifier: text("code_verifier").notNull(),
  invitationId: text("invitation_id"),
  expiresAt: integer("expires_at").notNull(),
});

/** Failed attempts at one factor (`password`, `totp`) of an account, shared by every instance; epoch ms. */
export const signInThrottles = sqliteTable(
  "sign_in_throttles",
  {
    userId: text("user_id").notNull(),
    factor: text("factor", { enum: ["password", "totp"] }).notNull(),
    failures: integer("failures").notNull(),
    lastFailedAt: integer("last_failed_at").notNull(),
    lockedUntil: integer("locked_until").notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.factor] })],
);
