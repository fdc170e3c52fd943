import { generateToken, type TokenRecord, type TokenStore } from "@vu/store";
import { describe, expect, it } from "vitest";
import { createTokenAuthenticator } from "./tokenAuthenticator";

/** An in-memory token store that counts lookups: a lookup is the Redis work a cache saves. */
function fakeTokens() {
  const records = new Map<string, TokenRecord>();
  const lookups = new Map<string, number>();
  const store: TokenStore = {
    async create(org, label) {
      const token = generateToken();
      const record: TokenRecord = {
        id: `id-${records.size}`,
        org,
        label,
        createdAt: new Date(0).toISOString(),
        lastUsedAt: null,
        revokedAt: null,
      };
      records.set(token, record);
      return { token, record };
    },
    async find(token) {
      lookups.set(token, (lookups.get(token) ?? 0) + 1);
      return records.get(token) ?? null;
    },
    async list() {
      return [...records.values()];
    },
    async revoke(_org, id) {
      for (const [token, record] of records) {
        if (record.id === id) records.set(token, { ...record, revokedAt: new Date(0).toISOString() });
      }
      return true;
    },
    async touch() {},
  };
  return { store, lookups: (token: string) => lookups.get(token) ?? 0 };
}

describe("createTokenAuthenticator", () => {
  it("caches an unknown token negatively for cacheMs, then looks again (a new token is accepted)", async () => {
    let now = 0;
    const { store, lookups } = fakeTokens();
    const auth = createTokenAuthenticator({ tokens: store, cacheMs: 2_000, now: () => now });
    const unknown = generateToken();
    for (let i = 0; i < 50; i++) expect(await auth.verify(unknown)).toBeNull();
    expect(lookups(unknown)).toBe(1);

    const { token } = await store.create("acme", "new");
    expect(await auth.verify(token)).not.toBeNull();
    now += 2_000;
    expect(await auth.verify(unknown)).toBeNull();
    expect(lookups(unknown)).toBe(2);
  });

  it("keeps valid tokens cached through a flood of made-up ones (never flushed wholesale)", async () => {
    const { store, lookups } = fakeTokens();
    // Past the default bound (10,000 each): a cache cleared whenever full would forget the busy token.
    const auth = createTokenAuthenticator({ tokens: store, cacheMs: 60_000 });
    const { token } = await store.create("acme", "busy client");
    expect(await auth.verify(token)).not.toBeNull();
    for (let i = 0; i < 25_000; i++) {
      await auth.verify(generateToken());
      if (i % 1_000 === 0) expect(await auth.verify(token)).not.toBeNull();
    }
    expect(lookups(token)).toBe(1);
  });

  it("refuses a revoked token once its cache entry expires", async () => {
    let now = 0;
    const { store } = fakeTokens();
    const auth = createTokenAuthenticator({ tokens: store, cacheMs: 1_000, now: () => now });
    const { token, record } = await store.create("acme", "to revoke");
    expect((await auth.verify(token))?.id).toBe(record.id);
    await store.revoke("acme", record.id);
    expect(await auth.verify(token)).not.toBeNull();
    now += 1_000;
    expect(await auth.verify(token)).toBeNull();
  });

  it("looks a token up again once told its refusal came from a store that could not answer", async () => {
    const { store } = fakeTokens();
    const auth = createTokenAuthenticator({ tokens: store, cacheMs: 60_000 });
    const { token } = await store.create("acme", "restored later");
    const hidden = await store.find(token);
    // As if Redis had lost the token: the store answers nothing for it.
    const find = store.find;
    store.find = async () => null;
    expect(await auth.verify(token)).toBeNull();
    store.find = find;
    expect(await auth.verify(token)).toBeNull();
    auth.forgetRefusal(token);
    expect((await auth.verify(token))?.id).toBe(hidden?.id);
  });
});
