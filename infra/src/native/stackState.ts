import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stackDir } from "../paths";

/**
 * What `stack:up` started and still owns, so `stack:down` stops exactly that and leaves services
 * someone else runs (a system Redis, a Kafka from KAFKA_BROKERS) alone.
 */
export interface StackState {
  kafka?: { port: number; controllerPort: number; dataDir: string };
  redis?: { port: number; dataDir: string };
}

function stateFile(): string {
  return join(stackDir(), "state.json");
}

export function readStackState(): StackState {
  const file = stateFile();
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, "utf8")) as StackState;
  } catch {
    // A torn or hand-edited file must not block `down`; the pid files are checked again anyway.
    return {};
  }
}

export function writeStackState(state: StackState): void {
  mkdirSync(stackDir(), { recursive: true });
  writeFileSync(stateFile(), `${JSON.stringify(state, null, 2)}\n`);
}

/**
 * Marks a service in its data dir as started for a test run rather than by a person: the last test
 * run to finish stops it, while a person's `stack:up` clears the mark and keeps it up. A marker file
 * written only by whoever launched the service, rather than a field in state.json, so that two runs
 * starting at once cannot overwrite each other's answer.
 */
export function setStartedByTests(dataDir: string, value: boolean): void {
  const marker = join(dataDir, "started-by-tests");
  if (value) writeFileSync(marker, `${process.pid}\n`);
  else rmSync(marker, { force: true });
}

export function isStartedByTests(dataDir: string): boolean {
  return existsSync(join(dataDir, "started-by-tests"));
}
