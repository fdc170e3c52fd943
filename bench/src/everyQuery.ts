import { f } from "./reportFormat";

/** One query's figure against an upper bound, with what it was measured from. */
export interface QueryFigure {
  id: string;
  value: number;
  /** `(0.41 ms vs 2.10 ms)`: the measurements the value is made of. */
  detail: string;
}

/**
 * One target row over several queries, each held to the same upper bound: how many met it and the
 * worst one. A figure that is not a number (a run that lacks it) cannot meet it; no figures at all
 * is "not measured" (met null).
 */
export function everyQuery(
  figures: readonly QueryFigure[],
  bound: number,
  format: (value: number) => string,
): { measured: string; met: boolean | null } {
  if (figures.length === 0) return { measured: "not measured: no query ran", met: null };
  const within = figures.filter((q) => q.value <= bound).length;
  const worst = figures.reduce((a, b) => (!(b.value <= a.value) ? b : a));
  const detail = `${worst.id} ${format(worst.value)} ${worst.detail}`;
  const measured =
    within === figures.length
      ? `all ${f(figures.length)} queries; the highest ${detail}`
      : `${f(within)} of ${f(figures.length)} queries; the worst ${detail}`;
  return { measured, met: within === figures.length };
}
