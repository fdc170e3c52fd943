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

/** The TypeScript types (`paths`, `components`, `operations`) of an OpenAPI 3.1 document. */
export async function renderSchemaTypes(document: object): Promise<string> {
  const ast = await openapiTS(document as OpenAPI3, { alphabetize: false, exportType: false });
  return `${HEADER}\n${astToString(ast)}`;
}
