import { type RedisServerHandle, startRedisServer } from "@vu/infra";
import { recording } from "@vu/testkit";
import { type ApiServer, bodyOf, startApiServer } from "@vu/testkit/api";
import { createRedisCommandLog, type RedisCommandLog } from "@vu/testkit/redisCommandLog";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const now = Date.parse("2026-11-22T12:00:00Z");
const ORG = "dimensions";
const PATH = "/api/v1/stats/dimensions";
let api: ApiServer;
let token: string;
let log: RedisCommandLog;
let server: RedisServerHandle | undefined;

const at = (i: number) => new Date(Date.parse("2026-11-20T08:00:00Z") + i * 60_000).toISOString();
const apps = ["Zoom", "zoomer", "Slack", "Ärzte-App", "ZOOM"];
const members = ["bob@example.com", "ada@example.com", "anna@example.org", "hanna@example.com"];

beforeAll(async () => {
  // A Redis of its own: MONITOR sees only this file's commands (and ioredis' monitor mode
  // breaks when other clients' commands arrive while it waits for a reply of its own).
  server = await startRedisServer({ appendonly: false });
  api = await startApiServer({ redisUrl: server.url, nowMs: now, orgs: [ORG] });
  token = api.tokenFor(ORG);
  await api.write(
    ORG,
    apps.map((app_name, i) =>
      recording(`r${i}`, at(i), {
        organization_id: ORG,
        app_name,
        member_email: members[i % members.length] as string,
        language_model: i === 0 ? null : "gpt",
      }),
    ),
  );
  log = await createRedisCommandLog(server.url);
});
afterAll(async () => {
  await log?.close();
  await api?.close();
  await server?.stop();
});

/** Whether an argument is one of the organization's keys (its lists, stamp, blocks, ...). */
const orgKey = (arg: string) => arg.startsWith(api.keyspace.orgBase(1, ORG));

async function ask(query = "", headers: Record<string, string> = {}) {
  const res = await api.get(`${PATH}${query}`, token, headers);
  return { res, text: await res.text(), commands: await log.take(orgKey) };
}

const SEED_ANSWER = {
  voice_models: ["whisper"],
  language_models: ["gpt"],
  app_names: ["Slack", "ZOOM", "Zoom", "zoomer", "Ärzte-App"],
};

/** Every app once the test below has counted three more. */
const ALL_APPS = ["Slack", "Teams", "ZOOM", "Zoom", "zoomer", "Ärzte-App", "\uFF5E Wave", "\u{1F600} Party"];

describe("GET /api/v1/stats/dimensions without parameters (the seed's operation)", () => {
  it("answers the seed's three lists, byte for byte, and ignores a query string of other names", async () => {
    const plain = await ask();
    expect(plain.res.status).toBe(200);
    expect(plain.res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(plain.text).toBe(JSON.stringify(SEED_ANSWER));
    for (const query of ["?_=1732000000", "?foo=1&foo=2", "?Q=zoom"]) {
      const other = await ask(query);
      expect(other.res.status).toBe(200);
      expect(other.text).toBe(plain.text);
    }
  });

  it("reads the values and the stamp once, then only the stamp while it holds", async () => {
    // A small organization keeps no dimension sets (decision 0032): once a listing has seen that
    // (the test above), the next reads its combination table with the stamp, and no set.
    const fresh = await ask("", { "cache-control": "no-cache" });
    const extent = api.keyspace.extent(1, ORG);
    expect(fresh.commands.filter(([name]) => name === "SMEMBERS" || name === "HKEYS")).toEqual([
      ["HKEYS", api.keyspace.combos(1, ORG)],
    ]);
    // The stamp and the mark with the table (one MULTI: MONITOR shows its commands, not MULTI).
    expect(fresh.commands.filter(([, key, ...fields]) => key === extent && fields.includes("dims"))).toEqual([
      ["HMGET", extent, "stamp", "dims"],
    ]);
    const again = await ask();
    expect(again.commands).toEqual([["HMGET", api.keyspace.extent(1, ORG), "stamp", "n"]]);
    expect(again.text).toBe(fresh.text);
  });

  it("shows values counted a moment ago in the very next answer, in byte order", async () => {
    await ask();
    // U+1F600 is a surrogate pair in UTF-16, which sorts it before U+FF5E; byte order puts it last.
    const added = ["Teams", "\u{1F600} Party", "\uFF5E Wave"];
    await api.write(
      ORG,
      added.map((app_name, i) => recording(`r-new${i}`, at(30 + i), { organization_id: ORG, app_name })),
    );
    const after = await ask();
    expect(after.commands).toContainEqual(["HKEYS", api.keyspace.combos(1, ORG)]);
    expect(JSON.parse(after.text).app_names).toEqual(ALL_APPS);
  });
});

describe("GET /api/v1/stats/dimensions with q, limit and include (docs/contract.md §7)", () => {
  const json = async (query: string) => {
    const { res, text } = await ask(query);
    expect(res.status).toBe(200);
    return JSON.parse(text) as Record<string, string[]>;
  };

  it("keeps values containing q, ignoring case, at most limit per list", async () => {
    expect(await json("?q=zoom")).toEqual({
      voice_models: [],
      language_models: [],
      app_names: ["ZOOM", "Zoom", "zoomer"],
    });
    expect((await json("?q=ZOOM&limit=2")).app_names).toEqual(["ZOOM", "Zoom"]);
    expect(await json("?limit=1")).toEqual({
      voice_models: ["whisper"],
      language_models: ["gpt"],
      app_names: ["Slack"],
    });
    expect((await json("?q=ärz")).app_names).toEqual(["Ärzte-App"]);
  });

  it("lists member_emails only when include=member_emails asks, filtered the same way", async () => {
    expect(Object.keys(await json("?q=a"))).not.toContain("member_emails");
    const all = await json("?include=member_emails");
    expect(all.member_emails).toEqual([...members].sort());
    expect(all.app_names).toEqual(ALL_APPS);
    expect((await json("?include=member_emails&q=NNA&limit=1")).member_emails).toEqual(["anna@example.org"]);
  });

  it("reads the member set only when asked, once per stamp whatever q and limit", async () => {
    await ask("?include=member_emails", { "cache-control": "no-cache" });
    const members = api.keyspace.dimension(1, ORG, "member_email");
    for (const query of ["?include=member_emails&q=a", "?include=member_emails&limit=2", "?q=b"]) {
      const { commands } = await ask(query);
      expect(commands).toEqual([["HMGET", api.keyspace.extent(1, ORG), "stamp", "n"]]);
      expect(commands.flat()).not.toContain(members);
    }
  });

  it.each([
    ["?q=a&lmit=3", "lmit", "unknown parameter"],
    ["?limit=0", "limit", "at least 1"],
    ["?limit=ten", "limit", "whole number"],
    ["?limit=-1", "limit", "whole number"],
    ["?include=members", "include", ""],
    ["?q=a&q=b", "q", "at most once"],
    [`?q=${"x".repeat(257)}`, "q", "256"],
  ])("refuses %s with a 400 naming the parameter", async (query, parameter, message) => {
    const { res, text } = await ask(query);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(text) as { errors: Array<{ parameter: string; message: string }> };
    expect(problem.errors).toContainEqual({ parameter, message: expect.stringContaining(message) });
  });

  it("refuses more parameters than the operation reads", async () => {
    const res = await api.get(`${PATH}?q=a&limit=1&include=member_emails&x=1`, token);
    expect(res.status).toBe(400);
    expect((await bodyOf(res)).errors[0].parameter).toBe("(query)");
  });
});
