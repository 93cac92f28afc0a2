/**
 * CSV imports of contacts (docs/contacts.md#imports): the multipart upload streamed to a file in the data directory
 * (byte-capped, never held in memory), then read back 16 KiB at a time with a streaming CSV parser in batches of at
 * most 250 rows, each batch one write that also moves the import's counts, one in flight while the next is read.
 * Invariants: an import is worked by one holder at a time (`lease_until`, renewed each batch; a crashed holder's
 * lease runs out and the import resumes after the records its counts already hold); the counts commit in file
 * order (the writer keeps writes in order); no step holds the event loop longer than parsing one chunk or running
 * one batch's few statements takes.
 */
import Busboy from "@fastify/busboy";
import { parse } from "csv-parse";
import { createReadStream, createWriteStream, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, eq, lt, or, sql } from "drizzle-orm";
import { type Static, Type as t } from "@sinclair/typebox";
import type { Actor } from "../access.ts";
import { requireScope } from "../access.ts";
import { pageById, type PageOptions } from "../db/pages.ts";
import type { ImportColumnMap, ImportStatus } from "../db/schema/index.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import { AppError, validationError } from "../errors.ts";
import { isoTime } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import type { Logger } from "../lib/logger.ts";
import { checkShape } from "../shape-check.ts";
import { findTopic } from "./audience-repo.ts";
import { applyBatch, type CsvRecord, type ImportRow, KEPT_LINE_ERRORS } from "./import-rows.ts";
import type { ContactImportView } from "./model.ts";
import { findSegment } from "./repo.ts";
import { TopicChoices } from "./requests.ts";
import type { ContactDeps } from "./service.ts";

/** The largest CSV an upload may carry: a million contacts with a few columns take about 100 MB. */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;
/**
 * Rows a batch writes (contacts, memberships and topic choices together): few enough that one batch, a handful of
 * multi-row statements run on the event loop on SQLite, stays within a few milliseconds (docs/contacts.md#imports).
 */
const BATCH_ROWS = 250;
/** Bytes of the file read (and parsed, synchronously) at a time: a few hundred records, well under a millisecond. */
const READ_CHUNK = 16 * 1024;
const LEASE_MS = 60_000;
const POLL_MS = 2_000;
/** One CSV record's largest size: a line longer than this is no contact list. */
const MAX_RECORD_BYTES = 64 * 1024;

const ColumnMapSchema = t.Object(
  {
    email: t.Optional(t.String()),
    first_name: t.Optional(t.String()),
    last_name: t.Optional(t.String()),
    unsubscribed: t.Optional(t.String()),
    properties: t.Optional(
      t.Record(
        t.String(),
        t.Object({
          column: t.String(),
          type: t.Optional(t.Union([t.Literal("string"), t.Literal("number"), t.Literal("boolean")])),
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
const SegmentsSchema = t.Array(t.Object({ id: t.String() }), { maxItems: 100 });

export interface ContactImports {
  /** Takes the upload (`body`, multipart/form-data) and queues its import; answers its id. */
  create(actor: Actor, contentType: string | null, body: ReadableStream<Uint8Array> | null): Promise<{ id: string }>;
  get(actor: Actor, id: string): Promise<ContactImportView>;
  list(
    actor: Actor,
    options: PageOptions & { status?: ImportStatus },
  ): Promise<{ object: "list"; has_more: boolean; data: ContactImportView[] }>;
  /** Works every import that is due until none is (tests; the runner calls it). */
  runPending(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

const view = (row: ImportRow): ContactImportView => ({
  object: "contact_import",
  id: row.id,
  status: row.status,
  created_at: row.createdAt,
  completed_at: row.completedAt ?? null,
  counts: { total: row.total, created: row.created, updated: row.updated, skipped: row.skipped, failed: row.failed },
  errors: row.errors,
  error: row.error ?? null,
});

const jsonField = <S extends Parameters<typeof checkShape>[0]>(schema: S, value: string | undefined, path: string) => {
  if (value === undefined || value === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw validationError([{ path, message: "must be JSON" }]);
  }
  try {
    return checkShape(schema, parsed) as Static<S>;
  } catch (error) {
    if (error instanceof AppError) throw validationError([{ path, message: error.message }]);
    throw error;
  }
};

export function createContactImports(deps: ContactDeps & { dataDir: string; logger: Logger }): ContactImports {
  const { db, writer, clock, logger } = deps;
  const folder = join(deps.dataDir, "imports");
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<void> | undefined;
  let stopping = false;

  /** Reads the multipart body: the `file` part streamed to `path`, the other fields kept (each small). */
  const receive = async (contentType: string, body: ReadableStream<Uint8Array>, path: string) => {
    const fields: Record<string, string> = {};
    let sawFile = false;
    let tooLarge = false;
    let bytes = 0;
    let written: Promise<void> = Promise.resolve();
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({
        headers: { "content-type": contentType },
        limits: { files: 1, fields: 10, parts: 12, fieldSize: 64 * 1024, fileSize: MAX_IMPORT_BYTES, headerPairs: 20 },
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw validationError([{ path: "file", message: `the upload is not well-formed multipart/form-data (${why})` }]);
    }
    parser.on("field", (name: string, value: string) => {
      fields[name] = value;
    });
    parser.on("file", (name: string, stream: Readable) => {
      if (name !== "file" || sawFile) {
        stream.resume();
        return;
      }
      sawFile = true;
      // Past the cap the upload stops here: reading the rest only to throw it away would let a client send forever.
      stream.on("limit", () => {
        tooLarge = true;
        parser.destroy(new AppError("payload_too_large", `The file is larger than ${MAX_IMPORT_BYTES} bytes.`));
      });
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          done(null, chunk);
        },
      });
      written = pipeline(stream, count, createWriteStream(path, { mode: 0o600 }));
    });
    try {
      await pipeline(Readable.fromWeb(body as import("node:stream/web").ReadableStream), parser);
      await written;
    } catch (error) {
      if (error instanceof AppError) throw error;
      // A body busboy cannot read (cut short, no boundary, a broken part) is the client's, not ours: 422 naming why.
      const why = error instanceof Error ? error.message : String(error);
      throw validationError([{ path: "file", message: `the upload is not well-formed multipart/form-data (${why})` }]);
    }
    if (tooLarge) throw new AppError("payload_too_large", `The file is larger than ${MAX_IMPORT_BYTES} bytes.`);
    if (!sawFile) throw validationError([{ path: "file", message: "a CSV file is required" }]);
    return { fields, bytes };
  };

  const claim = async (now: number): Promise<ImportRow | undefined> => {
    const { contactImports } = tablesOf(db);
    const due = or(
      eq(contactImports.status, "queued"),
      and(eq(contactImports.status, "in_progress"), lt(contactImports.leaseUntil, now)),
    );
    const candidate = await first(
      db.select({ id: contactImports.id }).from(contactImports).where(due).orderBy(contactImports.id).limit(1),
    );
    if (!candidate) return undefined;
    return writer.write(async (tx) => {
      const { contactImports } = tablesOf(tx);
      const [row] = await tx
        .update(contactImports)
        .set({ status: "in_progress", leaseUntil: now + LEASE_MS, updatedAt: isoTime(now) })
        .where(and(eq(contactImports.id, candidate.id), due))
        .returning();
      return row;
    });
  };

  const finish = async (job: ImportRow, status: "completed" | "failed", error: string | null) => {
    const at = isoTime(clock.now());
    await writer.write(async (tx) => {
      const { contactImports } = tablesOf(tx);
      await tx
        .update(contactImports)
        .set({ status, error, filePath: null, leaseUntil: null, updatedAt: at, completedAt: at })
        .where(eq(contactImports.id, job.id));
    });
    if (job.filePath) rmSync(job.filePath, { force: true });
  };

  /** Works one import from where its counts say it got to. */
  const work = async (job: ImportRow) => {
    if (!job.filePath) return finish(job, "failed", "The uploaded file is gone.");
    const done = job.total;
    // Each record writes its contact and one row per segment and per topic the import gives it.
    const batchSize = Math.max(1, Math.floor(BATCH_ROWS / (1 + job.segments.length + job.topics.length)));
    let seen = 0;
    let batch: CsvRecord[] = [];
    let errorsKept = job.errors.length;
    // One batch's write in flight while the next is read: the writer runs writes in order, so the counts still
    // commit in file order, and the fsync of one overlaps the parsing of the next.
    let inFlight: Promise<void> = Promise.resolve();
    const flush = async () => {
      const records = batch;
      batch = [];
      const now = clock.now();
      await writer.write(async (tx) => {
        const counts = await applyBatch(tx, job, records, isoTime(now));
        const kept = counts.errors.slice(0, Math.max(0, KEPT_LINE_ERRORS - errorsKept));
        errorsKept += kept.length;
        const { contactImports } = tablesOf(tx);
        await tx
          .update(contactImports)
          .set({
            total: sql`${contactImports.total} + ${records.length}`,
            created: sql`${contactImports.created} + ${counts.created}`,
            updated: sql`${contactImports.updated} + ${counts.updated}`,
            skipped: sql`${contactImports.skipped} + ${counts.skipped}`,
            failed: sql`${contactImports.failed} + ${counts.failed}`,
            ...(kept.length > 0 ? { errors: [...(await errorsOf(tx, job.id)), ...kept] } : {}),
            leaseUntil: now + LEASE_MS,
            updatedAt: isoTime(now),
          })
          .where(eq(contactImports.id, job.id));
      });
    };
    const parser = createReadStream(job.filePath, { highWaterMark: READ_CHUNK }).pipe(
      parse({
        columns: (header: string[]) => header.map((name) => name.trim()),
        bom: true,
        skip_empty_lines: true,
        relax_column_count: true,
        max_record_size: MAX_RECORD_BYTES,
        info: true,
      }),
    );
    try {
      for await (const { record, info } of parser as AsyncIterable<{
        record: Record<string, string>;
        info: { lines: number };
      }>) {
        const emailColumn = job.columnMap.email ?? "email";
        if (seen === 0 && !(emailColumn in record))
          return finish(job, "failed", `The file has no "${emailColumn}" column.`);
        seen++;
        if (seen <= done) continue;
        batch.push({ line: info.lines, fields: record });
        if (batch.length >= batchSize) {
          await inFlight;
          inFlight = flush();
          // Handled here so that a failing write is no unhandled rejection before the next await reports it.
          inFlight.catch(() => {});
        }
        if (stopping) return await inFlight;
      }
      await inFlight;
      if (batch.length > 0) await flush();
      await finish(job, "completed", null);
    } catch (error) {
      if (stopping) return;
      logger.warn("contact import failed", { import_id: job.id, error: String(error) });
      await finish(job, "failed", error instanceof Error ? `The file could not be read: ${error.message}` : "failed");
    } finally {
      parser.destroy();
      // A batch still in flight when the loop left early (stopping, or a parse error) settles before the job does.
      await inFlight.catch(() => {});
    }
  };

  const runPending = async () => {
    for (;;) {
      if (stopping) return;
      const job = await claim(clock.now());
      if (!job) return;
      await work(job);
    }
  };
  const wake = () => {
    if (!timer || running) return;
    running = runPending()
      .catch((error) => logger.warn("contact imports stopped", { error: String(error) }))
      .finally(() => {
        running = undefined;
      });
  };

  return {
    async create(actor, contentType, body) {
      requireScope(actor, "contacts:write");
      if (!contentType?.toLowerCase().startsWith("multipart/form-data") || !body)
        throw validationError([{ path: "file", message: "send the CSV as multipart/form-data, in the field file" }]);
      const id = newId();
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const path = join(folder, `${id}.csv`);
      try {
        const { fields, bytes } = await receive(contentType, body, path);
        const columnMap: ImportColumnMap = jsonField(ColumnMapSchema, fields.column_map, "column_map") ?? {};
        const onConflict = fields.on_conflict ?? "upsert";
        if (onConflict !== "upsert" && onConflict !== "skip")
          throw validationError([{ path: "on_conflict", message: "must be upsert or skip" }]);
        const segments = jsonField(SegmentsSchema, fields.segments, "segments") ?? [];
        const topics = jsonField(TopicChoices, fields.topics, "topics") ?? [];
        const at = isoTime(clock.now());
        await writer.write(async (tx) => {
          const segmentIds: string[] = [];
          for (const [i, segment] of segments.entries()) {
            const found = await findSegment(tx, actor.organizationId, segment.id.toLowerCase());
            if (!found) throw validationError([{ path: `segments.${i}.id`, message: "there is no such segment" }]);
            segmentIds.push(found.id);
          }
          const topicChoices = [];
          for (const [i, topic] of topics.entries()) {
            const found = await findTopic(tx, actor.organizationId, topic.id.toLowerCase());
            if (!found) throw validationError([{ path: `topics.${i}.id`, message: "there is no such topic" }]);
            topicChoices.push({ id: found.id, subscription: topic.subscription });
          }
          await tx.insert(tablesOf(tx).contactImports).values({
            id,
            organizationId: actor.organizationId,
            status: "queued",
            onConflict,
            columnMap,
            segments: segmentIds,
            topics: topicChoices,
            filePath: path,
            fileBytes: bytes,
            total: 0,
            created: 0,
            updated: 0,
            skipped: 0,
            failed: 0,
            errors: [],
            error: null,
            leaseUntil: null,
            createdAt: at,
            updatedAt: at,
            completedAt: null,
          });
        });
      } catch (error) {
        rmSync(path, { force: true });
        throw error;
      }
      wake();
      return { id };
    },

    async get(actor, id) {
      requireScope(actor, "contacts:read");
      const { contactImports } = tablesOf(db);
      const row = await first(
        db
          .select()
          .from(contactImports)
          .where(and(eq(contactImports.organizationId, actor.organizationId), eq(contactImports.id, id.toLowerCase()))),
      );
      if (!row) throw new AppError("not_found", "Import not found.");
      return view(row);
    },

    async list(actor, options) {
      requireScope(actor, "contacts:read");
      const { contactImports } = tablesOf(db);
      const filters = [eq(contactImports.organizationId, actor.organizationId)];
      if (options.status) filters.push(eq(contactImports.status, options.status));
      const { page, hasMore } = await pageById(contactImports.id, filters, options, (where, order, limit) =>
        db.select().from(contactImports).where(where).orderBy(order).limit(limit),
      );
      return { object: "list", has_more: hasMore, data: page.map(view) };
    },

    runPending,
    start() {
      stopping = false;
      timer ??= setInterval(wake, POLL_MS);
      wake();
    },
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };

  async function errorsOf(tx: Db, id: string) {
    const { contactImports } = tablesOf(tx);
    const row = await first(
      tx.select({ errors: contactImports.errors }).from(contactImports).where(eq(contactImports.id, id)),
    );
    return row?.errors ?? [];
  }
}
