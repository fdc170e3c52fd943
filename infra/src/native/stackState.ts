import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
