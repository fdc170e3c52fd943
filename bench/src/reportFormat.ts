import { type SizeResult, shapeOf } from "./results";

/** A number with thousands separators and fixed decimals; "–" when it is not finite (missing). */
export const f = (n: number, digits = 0): string =>
  Number.isFinite(n)
    ? n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : "–";

/** Milliseconds, or "–" when the value is missing (results from before a column existed). */
export const ms = (n: number | undefined, digits: number) =>
  n === undefined || !Number.isFinite(n) ? "–" : `${f(n, digits)} ms`;
export const times = (n: number | undefined, digits = 1) =>
  n === undefined || !Number.isFinite(n) ? "–" : `×${f(n, digits)}`;
export const kib = (bytes: number | undefined) =>
  bytes === undefined || !Number.isFinite(bytes) ? "–" : `${f(bytes / 1024, 1)} KiB`;
/** `1 recording`, `5 recordings`. */
export const recordings = (n: number): string => `${f(n)} recording${n === 1 ? "" : "s"}`;

/** A Markdown table. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** `50k`, `1M`, `1.5M`. */
export const sizeLabel = (size: number): string =>
  size >= 1e6 ? `${f(size / 1e6, size % 1e6 === 0 ? 0 : 2)}M` : `${f(size / 1e3)}k`;

/** A run's name in tables and targets: its size and shape, `1M single-org`, `1M multi-tenant`. */
export const runLabel = (s: SizeResult): string =>
  `${sizeLabel(s.size)} ${shapeOf(s) === "many" ? "multi-tenant" : "single-org"}`;
