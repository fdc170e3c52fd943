/**
 * A client written from the seed document alone (the API users code against, "Usage Statistics
 * Service Interface", restated in docs/contract.md): its three paths, its parameters, bearer auth. It sends none of docs/contract.md's
 * additions (the `timezone` parameter) and reads none (problem details, CSV headers).
 */

/**
 * The answers' types are the published ones (@vu/api-responses, what the OpenAPI document says):
 * the seed's fields plus docs/contract.md's (meta.timezone, a grouped row's group field). The seed's
 * own fields are what test/seedClient.int.test.ts checks every answer for, at run time.
 */
import type { Dimensions, StatsPage, Summary } from "@vu/api-responses";

/** Seed "Shared query parameters"; each filter is a list the client joins with commas. */
export interface SharedParams {
  start_date?: string;
  end_date?: string;
  filter?: Partial<Record<"member_email" | "voice_model" | "language_model" | "app_name", string[]>>;
}

/** Seed operation 3's own parameters. */
export interface StatsParams extends SharedParams {
  granularity?: "hour" | "day" | "week" | "month";
  group_by?: "member_email" | "voice_model" | "language_model" | "app_name";
  page?: number;
  page_size?: number;
}

export interface Reply<T> {
  status: number;
  /** Parsed JSON for JSON answers (T on 200), the text for CSV. */
  body: T;
  contentType: string | null;
}

export class UsageStatsClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string | undefined,
  ) {}

  dimensions(): Promise<Reply<Dimensions>> {
    return this.getJson("/api/v1/stats/dimensions", new URLSearchParams());
  }

  summary(params: SharedParams = {}): Promise<Reply<Summary>> {
    return this.getJson("/api/v1/stats/summary", this.query(params));
  }

  stats(params: StatsParams = {}): Promise<Reply<StatsPage>> {
    return this.getJson("/api/v1/stats", this.query(params));
  }

  /** `format=csv`: the seed shows neither columns nor content type, so this returns the text. */
  async statsCsv(params: StatsParams = {}): Promise<Reply<string>> {
    const query = this.query(params);
    query.set("format", "csv");
    const res = await this.get("/api/v1/stats", query);
    return { status: res.status, body: await res.text(), contentType: res.headers.get("content-type") };
  }

  private query(params: StatsParams): URLSearchParams {
    const query = new URLSearchParams();
    for (const key of ["start_date", "end_date", "granularity", "group_by", "page", "page_size"] as const) {
      const value = params[key];
      if (value !== undefined) query.set(key, String(value));
    }
    for (const [dimension, values] of Object.entries(params.filter ?? {})) {
      if (values !== undefined) query.set(`filter[${dimension}]`, values.join(","));
    }
    return query;
  }

  private get(path: string, query: URLSearchParams): Promise<Response> {
    const headers: Record<string, string> = this.token ? { Authorization: `Bearer ${this.token}` } : {};
    const qs = query.toString();
    return fetch(`${this.baseUrl}${path}${qs ? `?${qs}` : ""}`, { headers });
  }

  private async getJson<T>(path: string, query: URLSearchParams): Promise<Reply<T>> {
    const res = await this.get(path, query);
    const text = await res.text();
    return {
      status: res.status,
      body: (text ? JSON.parse(text) : null) as T,
      contentType: res.headers.get("content-type"),
    };
  }
}
