import { isIP } from "node:net";
import { z } from "zod";

/** What Express's `trust proxy` accepts, as TRUST_PROXY spells it. */
export type TrustProxy = boolean | number | string[];

const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isTrustedAddress(item: string): boolean {
  if (NAMED_RANGES.has(item)) return true;
  const [address = "", prefix, ...rest] = item.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) ? Number(prefix) <= (family === 4 ? 32 : 128) : isIP(prefix) === family;
}

/**
 * TRUST_PROXY: which proxies may name the client in `X-Forwarded-For`, so the per-address limit on
 * unauthenticated requests counts the real client rather than the load balancer. `false` (default):
 * the peer address counts. A number: trust that many hops. A comma-separated list of addresses,
 * subnets (`10.0.0.0/8`) or `loopback` / `linklocal` / `uniquelocal`: trust those proxies. `true`
 * trusts any sender, letting clients choose their own address: only behind a proxy that overwrites
 * the header.
 */
export const trustProxyEnv = z
  .string()
  .default("false")
  .transform((value, ctx): TrustProxy => {
    const text = value.trim();
    if (text === "true" || text === "false") return text === "true";
    if (/^\d+$/.test(text)) return Number(text);
    const items = text
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
    const bad = items.filter((item) => !isTrustedAddress(item));
    if (items.length === 0 || bad.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `must be true, false, a hop count or a list of addresses/subnets; not ${bad.join(", ") || "empty"}`,
      });
      return z.NEVER;
    }
    return items;
  });
