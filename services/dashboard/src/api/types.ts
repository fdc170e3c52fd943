// The three operations' answers and queries: the shapes of the API's OpenAPI document, as the typed
// client generates them. Types only: `import type` is erased.
import type { Problem as PublishedProblem } from "@vu/client";

export type {
  Dimensions,
  DimensionsQuery,
  StatsPage,
  StatsQuery,
  StatsRow,
  Summary,
  SummaryQuery,
} from "@vu/client";

/** RFC 9457 problem details as read: any field may be missing (a proxy's error page, a bare 502). */
export type Problem = Partial<PublishedProblem>;
