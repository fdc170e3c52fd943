import { Resvg } from "@resvg/resvg-js";
import { apiVariant, type BenchResults, runsOf } from "./results";

// One colour per dashboard query (eight), the tab10 palette.
const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];
const WIDTH = 1200;
const HEIGHT = 640;
const PANEL = { top: 70, bottom: 470, width: 480 };
const PANEL_LEFT = [90, 680];

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const sizeLabel = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);

interface Series {
  name: string;
  color: string;
  /** Solid for the API answered from the result cache, dotted computed, dashed PostgreSQL. */
  style: "solid" | "dotted" | "dashed";
  points: Array<[size: number, ms: number]>;
}

function seriesOf(results: BenchResults, stat: "p50" | "p99"): Series[] {
  const first = results.sizes[0];
  if (first === undefined) return [];
  return first.queries.flatMap((q, i) => {
    const color = COLORS[i % COLORS.length] ?? "#000";
    const pick = (system: "api" | "computed" | "postgres") =>
      results.sizes.flatMap((s): Array<[number, number]> => {
        const found = s.queries.find((x) => x.id === q.id);
        if (found === undefined) return [];
        const value = system === "computed" ? apiVariant(found, "computed")?.run[stat] : found[system][stat];
        return value === undefined ? [] : [[s.size, value]];
      });
    const computed = pick("computed");
    return [
      { name: `(${q.id}) API cached`, color, style: "solid" as const, points: pick("api") },
      ...(computed.length > 0
        ? [{ name: `(${q.id}) API computed`, color, style: "dotted" as const, points: computed }]
        : []),
      { name: `(${q.id}) PostgreSQL`, color, style: "dashed" as const, points: pick("postgres") },
    ];
  });
}

/** One log-log panel: latency (ms) against data set size. */
function panel(left: number, title: string, series: Series[], sizes: number[]): string {
  const values = series.flatMap((s) => s.points.map(([, ms]) => ms)).filter((v) => v > 0);
  const lo = Math.floor(Math.log10(Math.min(...values, 1)));
  const hi = Math.ceil(Math.log10(Math.max(...values, 10)));
  const { top, bottom, width } = PANEL;
  const y = (ms: number) => bottom - ((Math.log10(Math.max(ms, 10 ** lo)) - lo) / (hi - lo)) * (bottom - top);
  const logSizes = sizes.map(Math.log10);
  const minX = Math.min(...logSizes);
  const spanX = Math.max(...logSizes) - minX || 1;
  const x = (size: number) => left + 40 + ((Math.log10(size) - minX) / spanX) * (width - 80);
  const parts: string[] = [
    `<text x="${left + width / 2}" y="${top - 20}" text-anchor="middle" font-size="18" font-weight="bold">${escapeXml(title)}</text>`,
    `<rect x="${left}" y="${top}" width="${width}" height="${bottom - top}" fill="none" stroke="#333"/>`,
  ];
  for (let e = lo; e <= hi; e++) {
    const yy = y(10 ** e);
    const label = 10 ** e >= 1 ? (10 ** e).toLocaleString("en-US") : String(10 ** e);
    parts.push(`<line x1="${left}" x2="${left + width}" y1="${yy}" y2="${yy}" stroke="#ddd"/>`);
    parts.push(`<text x="${left - 8}" y="${yy + 5}" text-anchor="end" font-size="13">${label} ms</text>`);
  }
  for (const size of sizes) {
    parts.push(`<line x1="${x(size)}" x2="${x(size)}" y1="${top}" y2="${bottom}" stroke="#eee"/>`);
    parts.push(
      `<text x="${x(size)}" y="${bottom + 22}" text-anchor="middle" font-size="14">${sizeLabel(size)} recordings</text>`,
    );
  }
  for (const s of series) {
    const path = s.points.map(([size, ms]) => `${x(size).toFixed(1)},${y(ms).toFixed(1)}`).join(" ");
    const dash = { solid: "", dotted: ' stroke-dasharray="2 4"', dashed: ' stroke-dasharray="8 5"' }[s.style];
    parts.push(`<polyline points="${path}" fill="none" stroke="${s.color}" stroke-width="2.5"${dash}/>`);
    for (const [size, ms] of s.points) {
      const shape = {
        solid: `<circle cx="${x(size)}" cy="${y(ms)}" r="5" fill="${s.color}"/>`,
        dotted: `<circle cx="${x(size)}" cy="${y(ms)}" r="5" fill="white" stroke="${s.color}" stroke-width="2"/>`,
        dashed: `<rect x="${x(size) - 5}" y="${y(ms) - 5}" width="10" height="10" fill="white" stroke="${s.color}" stroke-width="2"/>`,
      }[s.style];
      parts.push(shape);
    }
  }
  return parts.join("\n");
}

function legend(results: BenchResults): string {
  const first = results.sizes[0];
  if (first === undefined) return "";
  const items = first.queries.map((q, i) => {
    const color = COLORS[i % COLORS.length] ?? "#000";
    const col = i % 3;
    const row = Math.floor(i / 3);
    const lx = 90 + col * 370;
    const ly = 540 + row * 26;
    return (
      `<line x1="${lx}" x2="${lx + 30}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="3"/>` +
      `<text x="${lx + 40}" y="${ly + 5}" font-size="14">(${q.id}) ${escapeXml(q.title)}</text>`
    );
  });
  const computed = results.sizes.some((s) => s.queries.some((q) => apiVariant(q, "computed")));
  const key =
    `<circle cx="${WIDTH - 640}" cy="${HEIGHT - 22}" r="5" fill="#444"/>` +
    `<text x="${WIDTH - 628}" y="${HEIGHT - 17}" font-size="14">solid: our API${computed ? ", cached" : ""}</text>` +
    (computed
      ? `<circle cx="${WIDTH - 440}" cy="${HEIGHT - 22}" r="5" fill="white" stroke="#444" stroke-width="2"/>` +
        `<text x="${WIDTH - 428}" y="${HEIGHT - 17}" font-size="14">dotted: computed (no-cache)</text>`
      : "") +
    `<rect x="${WIDTH - 195}" y="${HEIGHT - 27}" width="10" height="10" fill="white" stroke="#444" stroke-width="2"/>` +
    `<text x="${WIDTH - 180}" y="${HEIGHT - 17}" font-size="14">dashed: PostgreSQL</text>`;
  return [...items, key].join("\n");
}

/** Query latency against data set size for both systems, p50 and p99, as a PNG: the single-org data sets. */
export function renderChart(all: BenchResults): Buffer {
  const results = { ...all, sizes: runsOf(all, "single") };
  const sizes = results.sizes.map((s) => s.size);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" font-family="DejaVu Sans, Arial, sans-serif">
<rect width="100%" height="100%" fill="white"/>
${panel(PANEL_LEFT[0] ?? 0, "p50 latency by data set size (log scale)", seriesOf(results, "p50"), sizes)}
${panel(PANEL_LEFT[1] ?? 0, "p99 latency by data set size (log scale)", seriesOf(results, "p99"), sizes)}
${legend(results)}
</svg>`;
  return new Resvg(svg, { background: "white", font: { loadSystemFonts: true } }).render().asPng();
}
