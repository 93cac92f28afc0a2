import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** One row per request admitted to a rate-limit window (`key:<id>`, `org:<id>`), kept for the window's length. */
export const rateLimitAdmissions = sqliteTable("rate_limit_admissions", {
  bucket: text("bucket").notNull(),
  admittedAt: integer("admitted_at").notNull(),
});

/** When each periodic job is next due (ms): the instance that moves it forward takes the turn. */
export const periodicJobs = sqliteTable("periodic_jobs", {
  name: text("name").primaryKey(),
  nextRunAt: integer("next_run_at").notNull(),
});
