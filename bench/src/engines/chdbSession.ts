import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importEngine } from "./engineInstall";
import type { EngineStorage } from "./peerEngine";
import { sqlString } from "./rawQuery";

/** The parts of `chdb` the bench uses (it is installed outside the workspace, untyped here). */
interface ChdbApi {
  Session: new (
    path: string,
  ) => {
    query(sql: string, format?: string): string;
    cleanup(): void;
  };
}

/** ClickHouse in process (chDB), its data in a temporary directory of its own. */
export interface ChdbSession {
  /** A statement whose answer is not read (DDL, INSERT, OPTIMIZE). */
  exec(sql: string): void;
  /** A query's rows, as JSONEachRow reads them (64-bit integers come as text). */
  rows(sql: string): Array<Record<string, unknown>>;
  /** Bytes on disk and rows of a table's active parts (`system.parts`). */
  storage(table: string): EngineStorage;
  /** Ends the session and removes its directory. */
  close(): void;
}

export async function openChdbSession(): Promise<ChdbSession> {
  const loaded = (await importEngine("chdb")) as ChdbApi & { default?: ChdbApi };
  const { Session } = loaded.default ?? loaded;
  const dir = mkdtempSync(join(tmpdir(), "vu-bench-chdb-"));
  const session = new Session(dir);
  const rows = (sql: string) =>
    session
      .query(sql, "JSONEachRow")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    exec(sql) {
      session.query(sql);
    },
    rows,
    storage(table) {
      const [row = {}] = rows(
        `SELECT sum(bytes_on_disk) AS bytes, sum(rows) AS rows FROM system.parts
         WHERE active AND database = currentDatabase() AND table = ${sqlString(table)}`,
      );
      return { bytes: Number(row.bytes ?? 0), rows: Number(row.rows ?? 0) };
    },
    close() {
      session.cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
