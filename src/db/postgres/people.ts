/**
 * The people's PostgreSQL tables (docs/store.md#tables), column for column ../schema/people.ts: users, memberships,
 * sessions, one-time links, sign-in throttles, the audit log, invitations, recovery codes and single sign-on
 * attempts. Invariant: db/schema.test.ts proves them equal to the SQLite ones and to both engines' migrations.
 */
import { boolean, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ROLES } from "../schema/people.ts";
import { millis } from "./columns.ts";

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull(),
  name: text("name").notNull(),
  passwordHash: text("password_hash"),
  instanceAdmin: boolean("instance_admin").notNull().default(false),
  totpSecret: text("totp_secret"),
  totpPendingSecret: text("totp_pending_secret"),
  totpLastStep: millis("totp_last_step"),
  oidcSubject: text("oidc_subject"),
  emailProvenAt: text("email_proven_at"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const memberships = pgTable(
  "memberships",
  {
    organizationId: text("organization_id").notNull(),
    userId: text("user_id").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    createdAt: text("created_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.userId] })],
);

export const sessions = pgTable("sessions", {
  id: text("id").primaryKey(),
  userId: text("user_id").notNull(),
  createdAt: millis("created_at").notNull(),
  lastSeenAt: millis("last_seen_at").notNull(),
  ip: text("ip"),
  userAgent: text("user_agent"),
});

export const oneTimeLinks = pgTable("one_time_links", {
  tokenHash: text("token_hash").primaryKey(),
  purpose: text("purpose", { enum: ["setup", "password"] }).notNull(),
  userId: text("user_id"),
  provesEmail: boolean("proves_email").notNull().default(false),
  createdAt: text("created_at").notNull(),
  expiresAt: millis("expires_at"),
});

export const signInThrottles = pgTable(
  "sign_in_throttles",
  {
    userId: text("user_id").notNull(),
    factor: text("factor", { enum: ["password", "totp"] }).notNull(),
    failures: integer("failures").notNull(),
    lastFailedAt: millis("last_failed_at").notNull(),
    lockedUntil: millis("locked_until").notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.factor] })],
);

export const auditEvents = pgTable("audit_events", {
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
  changes: jsonb("changes").$type<Record<string, unknown> | null>(),
});

export const invitations = pgTable("invitations", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  email: text("email").notNull(),
  role: text("role", { enum: ROLES }).notNull(),
  tokenHash: text("token_hash").notNull(),
  invitedBy: text("invited_by"),
  createdAt: text("created_at").notNull(),
  expiresAt: millis("expires_at").notNull(),
  acceptedAt: text("accepted_at"),
});

export const recoveryCodes = pgTable(
  "recovery_codes",
  { userId: text("user_id").notNull(), codeHash: text("code_hash").notNull() },
  (table) => [primaryKey({ columns: [table.userId, table.codeHash] })],
);

export const ssoAttempts = pgTable("sso_attempts", {
  id: text("id").primaryKey(),
  browserHash: text("browser_hash").notNull(),
  nonce: text("nonce").notNull(),
  codeVerifier: text("code_verifier").notNull(),
  invitationId: text("invitation_id"),
  expiresAt: millis("expires_at").notNull(),
});
