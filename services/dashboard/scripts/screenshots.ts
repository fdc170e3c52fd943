// `pnpm --filter @vu/dashboard screenshots`: regenerates screenshots/*.png, the README's pictures.
// Brings up Kafka and Redis if they are not running (as `npm run stack:up`), then runs the same
// in-process product as the end-to-end tests (demo recordings through Kafka and the worker, the
// API serving the built dashboard) and photographs the main views in headless Chromium.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stackDown, stackUp, stderrLog } from "@vu/infra";
import type { Page } from "playwright-core";
import { startDashboardStack } from "../src/e2e/dashboardStack";
import { settled } from "../src/e2e/pageReaders";

const outDir = fileURLToPath(new URL("../screenshots/", import.meta.url));
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

interface Shot {
  file: string;
  viewport: { width: number; height: number };
  /** The view's query string; null for the sign-in page. */
  view: string | null;
  fullPage: boolean;
  /** What to do before the picture. */
  prepare?: (page: Page) => Promise<void>;
}

const SHOTS: readonly Shot[] = [
  { file: "sign-in-1280.png", viewport: DESKTOP, view: null, fullPage: false },
  {
    file: "overview-1280.png",
    viewport: DESKTOP,
    view: "range=last_30_days&timezone=Europe/Berlin",
    fullPage: true,
  },
  {
    file: "grouped-by-app-1280.png",
    viewport: DESKTOP,
    view: "range=last_quarter&timezone=Europe/Berlin&granularity=week&group_by=app_name&metric=minutes",
    fullPage: true,
  },
  {
    file: "members-other-1280.png",
    viewport: DESKTOP,
    view: "range=last_30_days&timezone=America/New_York&group_by=member_email",
    fullPage: false,
    prepare: async (page) => {
      await page.locator(".chart").first().scrollIntoViewIfNeeded();
      await page.mouse.move(700, 400);
    },
  },
  {
    file: "top-10-1280.png",
    viewport: DESKTOP,
    view: "range=last_30_days&timezone=Europe/Berlin",
    fullPage: false,
    prepare: async (page) => {
      await page.locator(".top-grid").scrollIntoViewIfNeeded();
    },
  },
  {
    file: "app-by-voice-model-1280.png",
    viewport: DESKTOP,
    view:
      "range=last_quarter&timezone=Europe/Berlin&granularity=week&group_by=app_name,voice_model" +
      "&exclude[language_model]=null&metric=minutes",
    fullPage: true,
  },
  {
    file: "refused-query-1280.png",
    viewport: DESKTOP,
    view: "range=custom&from=2020-01-01&to=2026-01-01&timezone=UTC&granularity=hour",
    fullPage: false,
  },
  {
    file: "overview-390.png",
    viewport: PHONE,
    view: "range=last_30_days&timezone=Europe/Berlin&group_by=voice_model",
    fullPage: true,
  },
  { file: "sign-in-390.png", viewport: PHONE, view: null, fullPage: false },
];

async function main(): Promise<void> {
  const stackInfo = await stackUp({ log: stderrLog });
  process.env.KAFKA_BROKERS = stackInfo.kafkaBrokers.join(",");
  process.env.REDIS_URL = stackInfo.redisUrl;
  const stack = await startDashboardStack({
    suite: "screenshots",
    recordings: 6_000,
    days: 120,
    log: stderrLog,
  });
  try {
    mkdirSync(outDir, { recursive: true });
    for (const shot of SHOTS) {
      const context = await stack.newContext({
        viewport: shot.viewport,
        timezoneId: "Europe/Berlin",
        locale: "en-GB",
      });
      const page = await context.newPage();
      await page.goto(`/dashboard/${shot.view === null ? "" : `?${shot.view}`}`);
      await settled(page);
      if (shot.view !== null) {
        await page.getByLabel("API token").fill(stack.token);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForFunction(() => document.querySelector("main")?.dataset.state !== "signed-out");
        await settled(page);
      }
      await shot.prepare?.(page);
      await page.screenshot({ path: join(outDir, shot.file), fullPage: shot.fullPage });
      process.stderr.write(`[screenshots] ${shot.file}\n`);
      await context.close();
    }
  } finally {
    await stack.close();
    if (stackInfo.started.kafka || stackInfo.started.redis) await stackDown({ log: stderrLog });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `screenshots failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
