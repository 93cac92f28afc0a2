/** Queries of the templates table; no rules (those live in service.ts): every read is scoped to one organisation. */
import { and, eq } from "drizzle-orm";
import { pageById, type PageOptions } from "../db/pages.ts";
import type { templates } from "../db/schema/index.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import { isUuid } from "../lib/ids.ts";

export type TemplateRow = typeof templates.$inferSelect;
export type NewTemplateRow = typeof templates.$inferInsert;
export type TemplateChanges = Partial<Omit<NewTemplateRow, "id" | "organizationId" | "createdAt">>;

/** A template of the organisation by id (any case) or by alias. */
export async function findTemplate(
  db: Db,
  organizationId: string,
  idOrAlias: string,
): Promise<TemplateRow | undefined> {
  const { templates } = tablesOf(db);
  return first(
    db
      .select()
      .from(templates)
      .where(
        and(
          eq(templates.organizationId, organizationId),
          isUuid(idOrAlias) ? eq(templates.id, idOrAlias.toLowerCase()) : eq(templates.alias, idOrAlias),
        ),
      ),
  );
}

/** One page of the organisation's templates, newest first. */
export async function pageTemplates(
  db: Db,
  organizationId: string,
  options: PageOptions,
): Promise<{ page: TemplateRow[]; hasMore: boolean }> {
  const { templates } = tablesOf(db);
  return pageById(templates.id, [eq(templates.organizationId, organizationId)], options, (where, order, limit) =>
    db.select().from(templates).where(where).orderBy(order).limit(limit),
  );
}

export async function insertTemplate(tx: Db, row: NewTemplateRow): Promise<void> {
  await tx.insert(tablesOf(tx).templates).values(row);
}

export async function updateTemplate(tx: Db, id: string, changes: TemplateChanges): Promise<void> {
  const { templates } = tablesOf(tx);
  await tx.update(templates).set(changes).where(eq(templates.id, id));
}

export async function deleteTemplate(tx: Db, id: string): Promise<void> {
  const { templates } = tablesOf(tx);
  await tx.delete(templates).where(eq(templates.id, id));
}
