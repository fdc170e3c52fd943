const started = Date.now();

/** Progress on stderr with the elapsed time, so a long background run can be followed in its log. */
export function log(message: string): void {
  const elapsed = ((Date.now() - started) / 1000).toFixed(1).padStart(7);
  process.stderr.write(`[bench ${elapsed}s] ${message}\n`);
}

export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
