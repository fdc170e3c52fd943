// The three operations' answers: the shapes the API publishes (its OpenAPI document), from the one
// package that defines them. Types only: `import type` is erased, so nothing of zod is bundled.
import type { Problem as PublishedProblem } from "@vu/api-responses";

export type { Dimensions, StatsPage, StatsRow, Summary } from "@vu/api-responses";

/** RFC 9457 problem details as read: any field may be missing (a proxy's error page, a bare 502). */
export type Problem = Partial<PublishedProblem>;
