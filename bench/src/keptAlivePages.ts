import { Agent, get } from "node:http";
import type { Socket } from "node:net";
import { sleep } from "@vu/infra";
import { type LatencySummary, summarize } from "./latencyStats";
import { fmt, log } from "./log";

/** The heavy answer paged through: its first page computed, the next ones kept. */
export interface PagingResult {
  totalRows: number;
  firstPageMs: number;
  laterPages: LatencySummary;
  /** Connections the pages went over: 1 unless the API closed it (absent in older results). */
  connections?: number;
  /** Answers 429/503 (with Retry-After) before a page was answered, each retried (absent in older results). */
  refused?: number;
}

export const LATER_PAGES = 10;
/** Refusals of one page waited out before the paging gives up. */
const MAX_REFUSALS = 20;

/** Retry-After in ms (seconds in the header; a date or nothing: one second), at most 10 s. */
export function retryAfterMs(header: string | undefined): number {
  const seconds = Number(header);
  if (header === undefined || header.trim() === "" || !Number.isFinite(seconds) || seconds < 0) return 1_000;
  return Math.min(seconds, 10) * 1_000;
}

interface Answer {
  status: number;
  ms: number;
  body: string;
  retryAfter: string | undefined;
  /** The connection it came over: a kept-alive one is the same object from request to request. */
  socket: Socket | undefined;
}

function ask(agent: Agent, url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let socket: Socket | undefined;
    const request = get(url, { agent, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => {
        const retryAfter = res.headers["retry-after"];
        const status = res.statusCode ?? 0;
        resolve({ status, ms: performance.now() - started, body, retryAfter, socket });
      });
      res.on("error", reject);
    });
    request.on("socket", (s) => {
      socket = s;
    });
    request.on("error", reject);
  });
}

/**
 * Page 1 asked uncached (computed, and kept by the API process that computed it), then pages 2 to
 * 11, all over one kept-alive connection: the API's cluster hands connections, not requests, to its
 * processes, and each process keeps its own answers, so a client on a new connection may reach
 * another process, which would compute the answer once more.
 */
export async function pageKeptAlive(input: {
  baseUrl: string;
  path: string;
  token: string;
  uncached: Record<string, string>;
}): Promise<PagingResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const sockets = new Set<Socket>();
  let refused = 0;
  const page = async (n: number, headers: Record<string, string>) => {
    for (let attempt = 0; ; attempt++) {
      const url = `${input.baseUrl}${input.path}&page=${n}`;
      const answer = await ask(agent, url, { authorization: `Bearer ${input.token}`, ...headers });
      if (answer.socket) sockets.add(answer.socket);
      if (answer.status === 200) return answer;
      if ((answer.status !== 429 && answer.status !== 503) || attempt >= MAX_REFUSALS)
        throw new Error(`paging: page ${n} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
      refused++;
      await sleep(retryAfterMs(answer.retryAfter));
    }
  };
  try {
    const first = await page(1, input.uncached);
    const totalRows = (JSON.parse(first.body) as { pagination?: { total_rows?: number } }).pagination
      ?.total_rows;
    const later: number[] = [];
    for (let n = 2; n <= LATER_PAGES + 1; n++) later.push((await page(n, {})).ms);
    const paging = {
      totalRows: totalRows ?? 0,
      firstPageMs: first.ms,
      laterPages: summarize(later),
      connections: sockets.size,
      refused,
    };
    log(
      `  paging ${fmt(paging.totalRows)} rows: page 1 ${fmt(first.ms, 1)} ms, pages 2-${LATER_PAGES + 1} ` +
        `p50 ${fmt(paging.laterPages.p50, 1)} ms over ${sockets.size} connection(s), ${refused} refused`,
    );
    return paging;
  } finally {
    agent.destroy();
  }
}
