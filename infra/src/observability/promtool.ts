import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Log } from "../log";
import { hasCommand, run } from "../native/commands";
import { userCacheDir } from "../paths";

/** Where promtool was found, or why it could not be had on this machine. */
export type PromtoolLookup = { ok: true; path: string; from: string } | { ok: false; reason: string };

/** The Debian package that holds promtool, and where its files are unpacked (outside the work tree). */
const PACKAGE = "prometheus";
const unpackedDir = () => join(userCacheDir(), "promtool");
const unpackedPromtool = () => join(unpackedDir(), "usr", "bin", "promtool");

async function answers(path: string): Promise<boolean> {
  try {
    await run(path, ["--version"], { timeoutMs: 30_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * `apt-get download prometheus` and `dpkg-deb -x` into the cache: promtool is one static binary of
 * Debian's package, so nothing is installed and no root is needed (only apt's package lists, which
 * root may refresh with `apt-get update`). Unpacked beside the cache and renamed into place, so
 * two runs at once never see half a tree.
 */
async function unpackFromDebian(log: Log): Promise<void> {
  mkdirSync(userCacheDir(), { recursive: true });
  const work = mkdtempSync(join(userCacheDir(), "promtool-"));
  try {
    const download = () => run("apt-get", ["download", PACKAGE], { cwd: work, timeoutMs: 300_000 });
    try {
      await download();
    } catch (error) {
      if (process.getuid?.() !== 0) throw error;
      log(`apt-get download ${PACKAGE} failed; refreshing the package lists`);
      await run("apt-get", ["update"], {
        timeoutMs: 300_000,
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      });
      await download();
    }
    const deb = readdirSync(work).find((file) => file.endsWith(".deb"));
    if (deb === undefined) throw new Error(`apt-get download ${PACKAGE} wrote no .deb`);
    const root = join(work, "root");
    await run("dpkg-deb", ["-x", join(work, deb), root], { timeoutMs: 300_000 });
    if (!existsSync(join(root, "usr", "bin", "promtool")))
      throw new Error(`${deb} holds no usr/bin/promtool`);
    try {
      renameSync(root, unpackedDir());
    } catch (error) {
      // Another run put it there first.
      if (!existsSync(unpackedPromtool())) throw error;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * promtool, for `promtool check rules` and `promtool test rules`: `PROMTOOL` when set, else the one
 * on PATH, else the one unpacked earlier into `${XDG_CACHE_HOME:-~/.cache}/vu-usage-stats/promtool`,
 * else Debian's `prometheus` package downloaded and unpacked there (like ensureDebianPackage, but
 * without installing a server). Never throws: a machine without apt says why.
 */
export async function findPromtool(log: Log): Promise<PromtoolLookup> {
  const given = process.env.PROMTOOL;
  if (given) {
    return (await answers(given))
      ? { ok: true, path: given, from: "PROMTOOL" }
      : { ok: false, reason: `PROMTOOL=${given} does not run` };
  }
  if ((await hasCommand("promtool")) && (await answers("promtool")))
    return { ok: true, path: "promtool", from: "PATH" };
  if (existsSync(unpackedPromtool()) && (await answers(unpackedPromtool()))) {
    return { ok: true, path: unpackedPromtool(), from: "cache" };
  }
  if (!(await hasCommand("apt-get")) || !(await hasCommand("dpkg-deb"))) {
    return {
      ok: false,
      reason: `promtool is not on PATH and this machine has no apt-get/dpkg-deb to fetch Debian's ${PACKAGE} package (set PROMTOOL to a promtool binary)`,
    };
  }
  try {
    log(`promtool is missing; unpacking it from Debian's ${PACKAGE} package into ${unpackedDir()} ...`);
    await unpackFromDebian(log);
  } catch (error) {
    return {
      ok: false,
      reason: `could not fetch Debian's ${PACKAGE} package: ${(error as Error).message.split("\n")[0]}`,
    };
  }
  return (await answers(unpackedPromtool()))
    ? { ok: true, path: unpackedPromtool(), from: `Debian's ${PACKAGE} package` }
    : { ok: false, reason: `${unpackedPromtool()} was unpacked but does not run` };
}
