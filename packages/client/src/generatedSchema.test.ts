// The committed OpenAPI document and the types generated from it are the API's own: this test
// renders both from createOpenApiDocument() and compares them with the committed files, so a
// change to the API's schemas that was not regenerated fails here. `pnpm --filter @vu/client
// generate` runs this file with --update, which writes them instead.
import { createOpenApiDocument } from "@vu/query-api";
import { describe, expect, it } from "vitest";
import { formatLikeTheRepo, renderSchemaTypes } from "./codegen/renderSchemaTypes";

const DOCUMENT_FILE = "../openapi.json";
const TYPES_FILE = "./generated/schema.ts";

describe("the generated client types", () => {
  const document = createOpenApiDocument();

  it("openapi.json is the API's document", async () => {
    const json = formatLikeTheRepo(`${JSON.stringify(document, null, 2)}\n`, "packages/client/openapi.json");
    await expect(json).toMatchFileSnapshot(DOCUMENT_FILE);
  });

  it("src/generated/schema.ts is openapi-typescript's rendering of that document", async () => {
    const types = formatLikeTheRepo(
      await renderSchemaTypes(document),
      "packages/client/src/generated/schema.ts",
    );
    expect(types).toContain('"/api/v1/stats"');
    await expect(types).toMatchFileSnapshot(TYPES_FILE);
  });
});
