import type { Register } from "./routeDeps";
import { registerV1Stats } from "./v1Stats";
import { registerV1StatsDimensions } from "./v1StatsDimensions";
import { registerV1StatsSummary } from "./v1StatsSummary";

/** Every authenticated API route, registered in this order. */
export const API_ROUTES: readonly Register[] = [
  registerV1StatsDimensions,
  registerV1StatsSummary,
  registerV1Stats,
];

export type { Register, RouteDeps } from "./routeDeps";
