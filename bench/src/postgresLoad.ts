import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { BenchDataset } from "./benchDataset";
import { csvChunks } from "./engines/rawEventsCsv";
import { fmt, log } from "./log";

export interface PostgresLoad {
  schema: string;
  rows: number;
  copySeconds: number;
  indexSeconds: number;
  analyzeSeconds: number;
  tableBytes: number;
  indexBytes: number;
}

/** `CREATE DATABASE` cannot run inside the target database, so it goes through `postgres`. */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/** `bench_200000`, `bench_200000_many`: one schema per data set (its key). */
export const schemaFor = (key: string) => `bench_${key.replaceAll("-", "_")}`;

/**
 * The raw-table baseline: COPY (FREEZE, in the transaction that creates the table, so the rows are
 * all-visible at once and index-only scans need no heap visits), then the index, then VACUUM
 * ANALYZE for the visibility map and the planner's statistics. One covering index serves every
 * dashboard query as an index-only range scan on (organization_id, recorded_at).
 */
export async function loadPostgres(
  url: string,
  dataset: Pick<BenchDataset, "key" | "total" | "events">,
): Promise<PostgresLoad> {
  const schema = schemaFor(dataset.key);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.query(`CREATE SCHEMA ${schema}`);
    const copyStarted = performance.now();
    await client.query("BEGIN");
    await client.query(`CREATE TABLE ${schema}.recordings (
      organization_id text NOT NULL,
      recording_id text NOT NULL,
      member_email text NOT NULL,
      voice_model text NOT NULL,
      language_model text,
      app_name text NOT NULL,
      recorded_at timestamptz NOT NULL,
      duration_ms bigint NOT NULL,
      word_count bigint NOT NULL,
      voice_processing_ms bigint,
      llm_processing_ms bigint
    )`);
    let lastLog = copyStarted;
    const copy = client.query(copyFrom(`COPY ${schema}.recordings FROM STDIN WITH (FORMAT csv, FREEZE)`));
    await pipeline(
      Readable.from(
        csvChunks(dataset, (rows) => {
          if (performance.now() - lastLog < 10_000) return;
          lastLog = performance.now();
          log(`  copied ${fmt(rows)} / ${fmt(dataset.total)} rows`);
        }),
      ),
      copy,
    );
    await client.query("COMMIT");
    const copySeconds = (performance.now() - copyStarted) / 1000;

    const indexStarted = performance.now();
    await client.query("SET maintenance_work_mem = '512MB'");
    await client.query(`CREATE INDEX recordings_org_time ON ${schema}.recordings (organization_id, recorded_at)
      INCLUDE (member_email, voice_model, language_model, app_name,
               duration_ms, word_count, voice_processing_ms, llm_processing_ms)`);
    const indexSeconds = (performance.now() - indexStarted) / 1000;

    const analyzeStarted = performance.now();
    await client.query(`VACUUM (ANALYZE) ${schema}.recordings`);
    const analyzeSeconds = (performance.now() - analyzeStarted) / 1000;
    // Write the loaded pages out now: left to the checkpointer, the flush ran during the ingest
    // measurement that follows and took CPU and disk from it.
    await client.query("CHECKPOINT");

    const sizes = await client.query<{ table_bytes: string; index_bytes: string; rows: string }>(
      `SELECT pg_table_size('${schema}.recordings') AS table_bytes,
              pg_indexes_size('${schema}.recordings') AS index_bytes,
              (SELECT count(*) FROM ${schema}.recordings) AS rows`,
    );
    const row = sizes.rows[0];
    if (row === undefined) throw new Error("no size row");
    return {
      schema,
      rows: Number(row.rows),
      copySeconds,
      indexSeconds,
      analyzeSeconds,
      tableBytes: Number(row.table_bytes),
      indexBytes: Number(row.index_bytes),
    };
  } finally {
    await client.end();
  }
}

export async function dropSchema(url: string, key: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schemaFor(key)} CASCADE`);
  } finally {
    await client.end();
  }
}
