/** A parsed query string: a parameter given more than once holds every value, in order. */
export type ParsedQuery = Record<string, string | string[]>;

/**
 * The app's `query parser`: every parameter of the raw query string, without a cap. Express's
 * "simple" parser (Node's querystring) and qs both stop at 1,000 parameters and drop the rest
 * silently, so with either, `?` + 1,000 `&` + `granularity=xml` would answer 200 with daily
 * buckets. Counting and rejecting is parseQuery's job (docs/contract.md §3: nothing is ever
 * silently dropped).
 *
 * URLSearchParams decodes like a form (`+` is a space, bad escapes stay literal) and skips empty
 * segments: `a=1&&&b=2` has two parameters, as a separator is not a parameter. `&=x` is one, with
 * an empty name, which no operation knows. Keys live on a prototype-less object, so `__proto__` is
 * just an unknown parameter.
 */
export function parseQueryString(raw: string): ParsedQuery {
  const query: ParsedQuery = Object.create(null);
  for (const [key, value] of new URLSearchParams(raw)) {
    const prior = query[key];
    if (prior === undefined) query[key] = value;
    else if (Array.isArray(prior)) prior.push(value);
    else query[key] = [prior, value];
  }
  return query;
}
