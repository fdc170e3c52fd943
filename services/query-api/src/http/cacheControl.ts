/** What it reads of a request: its headers by name (Express `Request#get`). */
interface Headers {
  get(name: string): string | undefined;
}

/**
 * Whether the client asks for an answer computed now rather than a kept one (RFC 9111:
 * `Cache-Control: no-cache` or `no-store` on the request, or the older `Pragma: no-cache`). Kept
 * answers are exact either way; this is for clients that measure or distrust them.
 */
export function wantsFreshAnswer(req: Headers): boolean {
  const directives = `${req.get("cache-control") ?? ""},${req.get("pragma") ?? ""}`.toLowerCase();
  return FRESH_DIRECTIVE.test(directives);
}

/** `no-cache` or `no-store` as a whole directive (`no-cache="x"` too), anywhere in the list. */
const FRESH_DIRECTIVE = /(?:^|[\s,])no-(?:cache|store)(?=$|[\s,;=])/;
