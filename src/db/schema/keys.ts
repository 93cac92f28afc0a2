import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const apiKeys = sqliteTable("api_keys", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  name: text("name").notNull(),
  mode: text("mode", { enum: ["live", "test"] }).notNull(),
  tokenPrefix: text("token_prefix").notNull(),
  tokenHash: text("token_hash").notNull(),
  scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
  domains: text("domains", { mode: "json" }).$type<string[] | null>(),
  rateLimitPerMinute: integer("rate_limit_per_minute"),
  /** Messages per UTC day this key may send; null: none of its own. */
  dailyQuota: integer("daily_quota"),
  createdAt: text("created_at").notNull(),
  lastUsedAt: text("last_used_at"),
  revokedAt: text("revoked_at"),
  /** The key that minted this one (its sends count against that key's quota too); null: a person or the console. */
  createdByKeyId: text("created_by_key_id"),
});
