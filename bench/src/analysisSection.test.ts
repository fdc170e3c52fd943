import { describe, expect, it } from "vitest";
import { analysisOf } from "./analysisSection";

const analysis = `# Reading the benchmark runs

Newest first.

## Session of day two: run \`bbbb2222\`, both sizes

The second run's reading.

### Ingest

Its ingest.

## Session of day one: run \`aaaa1111\`

The first run's reading.

### Met

- Everything, then.
`;

describe("analysisOf", () => {
  it("takes the section naming the run and none of the others", () => {
    const text = analysisOf(analysis, "bbbb2222");
    expect(text).toContain("*Session of day two: run `bbbb2222`, both sizes*");
    expect(text).toContain("The second run's reading.");
    expect(text).toContain("### Ingest");
    expect(text).not.toContain("day one");
    expect(text).not.toContain("### Met");
    expect(text).not.toContain("Reading the benchmark runs");
  });

  it("takes an older run's section when the results are that run's", () => {
    const text = analysisOf(analysis, "aaaa1111");
    expect(text).toContain("The first run's reading.");
    expect(text).not.toContain("The second run's reading.");
  });

  it("says there is no reading when no section names the run", () => {
    expect(analysisOf(analysis, "cccc3333")).toMatch(/has no reading of run `cccc3333` yet/);
    expect(analysisOf(undefined, "cccc3333")).toMatch(/has no reading of run `cccc3333` yet/);
  });

  it("keeps every heading of the section below the report's own sections", () => {
    const odd = "## Run `dddd4444`\n\nText.\n\n# A title in the middle\n\n### Part\n";
    const headings = analysisOf(odd, "dddd4444").match(/^#+ /gm) ?? [];
    expect(headings.length).toBe(2);
    for (const heading of headings) expect(heading.length).toBeGreaterThanOrEqual(4);
  });
});
