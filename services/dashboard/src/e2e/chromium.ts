import { existsSync } from "node:fs";
import { ensureDebianPackage, type Log } from "@vu/infra";
import { type Browser, chromium } from "playwright-core";

/** Debian's browser; `CHROMIUM_PATH` names another build. No browser is ever downloaded. */
const DEBIAN_CHROMIUM = "/usr/bin/chromium";

/**
 * The path of a Chromium to drive, installing Debian's `chromium` package when it is missing (as
 * the stack installs redis-server). Where it cannot (not root, no apt-get) the error says what to
 * install.
 */
export async function ensureChromium(log: Log): Promise<string> {
  const given = process.env.CHROMIUM_PATH;
  if (given) {
    if (!existsSync(given)) throw new Error(`CHROMIUM_PATH=${given} does not exist`);
    return given;
  }
  if (!existsSync(DEBIAN_CHROMIUM)) await ensureDebianPackage("chromium", "chromium", log);
  return DEBIAN_CHROMIUM;
}

/** Headless Chromium through playwright-core. */
export async function launchChromium(log: Log): Promise<Browser> {
  const executablePath = await ensureChromium(log);
  return chromium.launch({
    executablePath,
    headless: true,
    // Root in a container has no user namespace for Chromium's sandbox.
    args: process.getuid?.() === 0 ? ["--no-sandbox"] : [],
  });
}
