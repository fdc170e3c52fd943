import { buildOrganization, generateEvents, produceEvents } from "@vu/demo-data";
import { type Log, waitFor } from "@vu/infra";
import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { type InProcessWorker, startInProcessWorker } from "@vu/testkit/worker";
import { DAY_MS } from "@vu/time-buckets";
import type { Browser, BrowserContext, BrowserContextOptions } from "playwright-core";
import { launchChromium } from "./chromium";
import { ensureDashboardBuilt } from "./dashboardBuild";

export interface DashboardStack {
  api: ApiServer;
  org: string;
  /** A token of `org`, created through the token store like the tokens CLI does. */
  token: string;
  recordings: number;
  browser: Browser;
  /** A browser context whose pages open the dashboard; `bypassCSP` only for injecting test tools (axe). */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  close(): Promise<void>;
}

export interface DashboardStackOptions {
  /** A unique name for topics, keys and the organization. */
  suite: string;
  /** Recordings over the last `days` days, ingested through Kafka by the real worker. */
  recordings: number;
  days: number;
  log: Log;
}

/**
 * The product as a user meets it, in-process: demo recordings produced to Kafka, counted by the
 * ingest worker, read by the query API, which serves the built dashboard; and a headless
 * Chromium to open it.
 */
export async function startDashboardStack(options: DashboardStackOptions): Promise<DashboardStack> {
  const nowMs = Date.now();
  const names = await isolatedTopics(options.suite);
  const org = `org-${names.prefix}`;
  const kafka = testKafka();
  const [browser] = await Promise.all([launchChromium(options.log), ensureDashboardBuilt()]);
  let worker: InProcessWorker | null = null;
  let api: ApiServer | null = null;
  try {
    worker = await startInProcessWorker({ kafka, names });
    api = await startApiServer({ nowMs, prefix: names.prefix, orgs: [org] });
    // A small organization's shape with a fixed member count (smallOrganization draws 10 to 14 from
    // the name): more members than a top 10, so the members' ranking always has its "(other)" row.
    const profile = buildOrganization(org, 12, {
      memberCount: 13,
      voiceModelCount: 3,
      namedLanguageModelCount: 2,
      appCount: 6,
      homeTimeZone: "Europe/Berlin",
      homeShare: 0.75,
    });
    const events = generateEvents({
      profile,
      seed: 12,
      fromMs: nowMs - options.days * DAY_MS,
      toMs: nowMs - 60_000,
      count: options.recordings,
      idPrefix: names.prefix,
    });
    await produceEvents({ kafka, topic: names.topic, events });
    const token = api.tokenFor(org);
    const server = api;
    // Visible through the API's public operation: every recording counted.
    await waitFor(
      async () => {
        const res = await server.get("/api/v1/stats/summary?start_date=2000-01-01", token);
        return (
          res.ok &&
          ((await res.json()) as { total_recordings: number }).total_recordings === options.recordings
        );
      },
      {
        timeoutMs: 120_000,
        intervalMs: 250,
        message: `${options.recordings} recordings visible through the API`,
      },
    );
    const stack: DashboardStack = {
      api: server,
      org,
      token,
      recordings: options.recordings,
      browser,
      newContext: (contextOptions = {}) => browser.newContext({ baseURL: server.baseUrl, ...contextOptions }),
      async close() {
        await browser.close();
        await server.close();
        await worker?.stop();
      },
    };
    return stack;
  } catch (error) {
    await browser.close();
    await api?.close();
    await worker?.stop();
    throw error;
  }
}
