import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isAlive } from "../native/processes";
import { stackDir } from "../paths";

/**
 * Test runs on one machine share the native stack (same ports, same .stack folder). Each run holds a
 * lease while it uses it, so a run that finishes first does not stop Kafka under another run's feet:
 * only the last run out stops what test runs started. Leases of crashed runs are recognised by their
 * dead pid and ignored.
 */
function leasesDir(): string {
  return join(stackDir(), "leases");
}

export function acquireLease(): string {
  mkdirSync(leasesDir(), { recursive: true });
  const file = join(leasesDir(), String(process.pid));
  writeFileSync(file, `${new Date().toISOString()}\n`);
  return file;
}

/** Drops this run's lease and returns how many other live runs still hold one. */
export function releaseLease(file: string): number {
  rmSync(file, { force: true });
  let others = 0;
  for (const name of readdirSync(leasesDir())) {
    const pid = Number.parseInt(name, 10);
    if (Number.isInteger(pid) && isAlive(pid)) others += 1;
    else rmSync(join(leasesDir(), name), { force: true });
  }
  return others;
}
