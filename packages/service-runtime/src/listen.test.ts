import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ListenError, listen, listenOrExit } from "./listen";
import { createLogger } from "./logger";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function server(): Server {
  const s = createServer((_req, res) => res.end("ok"));
  servers.push(s);
  return s;
}

describe("listen", () => {
  it("resolves once the port is bound", async () => {
    const s = server();
    await listen(s, 0, "127.0.0.1");
    expect(s.listening).toBe(true);
    expect((s.address() as AddressInfo).port).toBeGreaterThan(0);
  });

  it("rejects, naming the port and why, when the port is taken", async () => {
    const first = server();
    await listen(first, 0, "127.0.0.1");
    const { port } = first.address() as AddressInfo;
    const second = server();
    const error = await listen(second, port, "127.0.0.1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ListenError);
    expect((error as ListenError).message).toBe(`cannot listen on port ${port}: the port is already in use`);
    expect((error as ListenError).port).toBe(port);
    expect(second.listening).toBe(false);
  });
});

describe("listenOrExit", () => {
  it("listens when it can", async () => {
    const s = server();
    await listenOrExit(s, 0, { logger: createLogger("test", "silent") });
    expect(s.listening).toBe(true);
  });

  it("logs why, runs beforeExit and exits 1 when the port is taken", async () => {
    const first = server();
    await listen(first, 0);
    const { port } = first.address() as AddressInfo;
    const logger = createLogger("test", "silent");
    const fatal = vi.spyOn(logger, "fatal");
    const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as () => never);
    const beforeExit = vi.fn();
    try {
      await listenOrExit(server(), port, { logger, beforeExit });
      expect(fatal).toHaveBeenCalledWith(
        expect.objectContaining({ port }),
        `cannot listen on port ${port}: the port is already in use`,
      );
      expect(beforeExit).toHaveBeenCalledOnce();
      expect(exit).toHaveBeenCalledWith(1);
      expect(beforeExit.mock.invocationCallOrder[0]).toBeLessThan(exit.mock.invocationCallOrder[0] ?? 0);
    } finally {
      exit.mockRestore();
    }
  });
});
