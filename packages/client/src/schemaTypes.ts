// Short names for the generated shapes, so callers need not spell `components["schemas"][…]`.
import type { components, operations } from "./generated/schema";

type Schemas = components["schemas"];
export type Dimensions = Schemas["Dimensions"];
export type Problem = Schemas["Problem"];
export type Summary = Schemas["Summary"];
export type StatsPage = Schemas["StatsPage"];
export type StatsRow = Schemas["StatsRow"];

export type StatsQuery = NonNullable<operations["getStats"]["parameters"]["query"]>;
export type SummaryQuery = NonNullable<operations["getSummary"]["parameters"]["query"]>;
export type DimensionsQuery = NonNullable<operations["getDimensions"]["parameters"]["query"]>;
