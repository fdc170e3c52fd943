// bench/ANALYSIS.md is the hand-written reading of the runs, newest first, one `## ` section per
// run or session with the run's id in its heading. The report takes the section about its own run
// and nothing else: the other sections are history, which stays in ANALYSIS.md.

interface AnalysisPart {
  heading: string;
  body: string;
}

/** The `## ` sections of the document, in order (what comes before the first one is left out). */
function parts(markdown: string): AnalysisPart[] {
  const found: AnalysisPart[] = [];
  for (const chunk of markdown.split(/^## /m).slice(1)) {
    const newline = chunk.indexOf("\n");
    const heading = (newline < 0 ? chunk : chunk.slice(0, newline)).trim();
    found.push({ heading, body: newline < 0 ? "" : chunk.slice(newline + 1).trim() });
  }
  return found;
}

/**
 * Headings of the included text one level below the report's section (`## `): a `## ` line in the
 * body, or a `# `, would otherwise read as one of the report's own sections.
 */
const belowReportSection = (body: string): string =>
  body.replace(/^(#{1,2}) /gm, (_, marks: string) => `${"#".repeat(marks.length + 2)} `);

/**
 * The reading of run `runId` from ANALYSIS.md, for the report's own section: its heading in italics,
 * then its text as it stands. When ANALYSIS.md has no section about this run, it says so.
 */
export function analysisOf(markdown: string | undefined, runId: string): string {
  const own =
    markdown === undefined ? undefined : parts(markdown).find((p) => p.heading.includes(`\`${runId}\``));
  if (own === undefined)
    return `[ANALYSIS.md](ANALYSIS.md) has no reading of run \`${runId}\` yet (its sections are the readings of earlier runs).`;
  return `*${own.heading}* ([ANALYSIS.md](ANALYSIS.md); the readings of earlier runs are there too)\n\n${belowReportSection(own.body)}`;
}
