import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";

/** The generated file's first lines: what it is and how to make it again. */
const HEADER = `// Generated from the API's OpenAPI document (packages/client/openapi.json) by openapi-typescript.
// Do not edit: \`pnpm --filter @vu/client generate\` writes it again; src/generatedSchema.test.ts
// fails when it is stale.
`;

const biomeBin = (): string => {
  const manifest = createRequire(import.meta.url).resolve("@biomejs/biome/package.json");
  return join(dirname(manifest), "bin", "biome");
};

/**
 * Formats a file's text as the repository's Biome writes it, so `biome check --write` leaves the
 * generated files alone and the staleness test compares like with like.
 */
export function formatLikeTheRepo(text: string, filePath: string): string {
  return execFileSync(process.execPath, [biomeBin(), "format", `--stdin-file-path=${filePath}`], {
    input: text,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
}

/**
 * The index signature openapi-typescript writes for an object's `patternProperties` (the API's only
 * ones: docs/contract.md §9's percentile fields, `p<q>_…`, numbers or null), and what it becomes:
 * a `string` index typed `number | null` would clash with the object's other fields (an
 * intersection makes `time_bucket` `string & (number | null)`), a template literal index does not.
 */
const PATTERN_INDEX = "[key: string]: number | null;";
// biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source written out, not a template.
const PERCENTILE_INDEX = "[key: `p${number}_${string}`]: number | null;";

/** How many schemas of `value` (a document, or a part of one) have `patternProperties`. */
function patternSchemas(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const own = "patternProperties" in value ? 1 : 0;
  return own + Object.values(value).reduce((n: number, v) => n + patternSchemas(v), 0);
}

/** The TypeScript types (`paths`, `components`, `operations`) of an OpenAPI 3.1 document. */
export async function renderSchemaTypes(document: object): Promise<string> {
  const ast = await openapiTS(document as OpenAPI3, { alphabetize: false, exportType: false });
  const text = astToString(ast);
  const indexes = text.split(PATTERN_INDEX).length - 1;
  if (indexes !== patternSchemas(document))
    throw new Error(`${indexes} string index signatures for ${patternSchemas(document)} patternProperties`);
  return `${HEADER}\n${text.replaceAll(PATTERN_INDEX, PERCENTILE_INDEX)}`;
}
