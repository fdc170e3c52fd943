import { TOKEN_PREFIX } from "@vu/store";

/**
 * What a request's log line may say. pino-http's defaults log the whole URL (so
 * `filter[member_email]=…` puts a member's e-mail in the logs, and `?access_token=sk-vu-…` a
 * token), every header, the route params and the client address; the response's headers repeat
 * the query too (a CSV page's `Link` names the next page with the same filters). Logs are kept
 * longer and read by more people than the data, so a line carries the request id, the method, the
 * path and the NAMES of the query parameters, and of the response only its status. No value of a
 * parameter is ever logged: an allow-list of "harmless" values would have to be kept in step with
 * every parameter added, and a forgotten one leaks.
 */

export const REDACTED = "[redacted]";

/** An e-mail address: anything with an `@`. Redacting a harmless line costs nothing; missing an address leaks it. */
const EMAIL_LIKE = /@/;
/** Our tokens' prefix anywhere, or a run of letters and digits as long as a token's random part (32+ base62). */
const TOKEN_LIKE = new RegExp(`${TOKEN_PREFIX}|[0-9A-Za-z]{32,}`, "i");

/** pino-http hands its serializers pino-std-serializers' view of the request; `url` is Express's originalUrl. */
export interface RequestLogInput {
  id?: unknown;
  method?: string;
  url?: string;
}

export interface RequestLogEntry {
  id: unknown;
  method: string | undefined;
  path: string;
  /** Names of the query parameters given, each once, in order of first appearance. */
  query: string[];
}

export interface ResponseLogInput {
  statusCode?: number;
}

export function looksSensitive(text: string): boolean {
  return EMAIL_LIKE.test(text) || TOKEN_LIKE.test(text);
}

/** Percent-decoded when possible, so `sk%2Dvu%2D…` or `%40` are seen for what they are. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The path with every segment that looks like an e-mail or a token replaced whole (a token's tail is a secret too). */
export function redactPath(path: string): string {
  return path
    .split("/")
    .map((segment) => (looksSensitive(decoded(segment)) ? REDACTED : segment))
    .join("/");
}

/**
 * The parameter names of a raw query string, decoded as the app's query parser decodes them. A
 * name can be sensitive too: a client that forgets the `=` sends its value as a name.
 */
export function queryParameterNames(rawQuery: string): string[] {
  const names = new Set<string>();
  for (const name of new URLSearchParams(rawQuery).keys()) {
    names.add(looksSensitive(name) ? REDACTED : name);
  }
  return [...names];
}

export function serializeRequest(req: RequestLogInput): RequestLogEntry {
  const url = req.url ?? "";
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const rawQuery = queryAt === -1 ? "" : url.slice(queryAt + 1);
  return { id: req.id, method: req.method, path: redactPath(path), query: queryParameterNames(rawQuery) };
}

/** The status only: the response's headers include `Link`, which repeats the request's query. */
export function serializeResponse(res: ResponseLogInput): { statusCode: number | undefined } {
  return { statusCode: res.statusCode };
}

/** For pino-http's `serializers`; it still applies pino-std-serializers first and hands over their result. */
export const requestLogSerializers = { req: serializeRequest, res: serializeResponse };
