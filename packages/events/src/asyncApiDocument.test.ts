import { Parser } from "@asyncapi/parser";
import { describe, expect, it } from "vitest";
import { asyncApiDocument, recordingCompletedJsonSchema } from "./asyncApiDocument";
import { DLQ_HEADERS } from "./deadLetters";
import { RECORDINGS_DLQ_TOPIC, RECORDINGS_TOPIC, recordingCompletedSchema } from "./recordingCompleted";

describe("the AsyncAPI document", () => {
  it("is valid AsyncAPI 3.0 by the reference parser, without errors or warnings of substance", async () => {
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(asyncApiDocument()));
    // Severity 0 is an error, 1 a warning (spectral's scale).
    expect(diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.code}: ${d.message}`)).toEqual([]);
    expect(
      document
        ?.channels()
        .all()
        .map((c) => c.address()),
    ).toEqual([RECORDINGS_TOPIC, RECORDINGS_DLQ_TOPIC]);
  });

  it("would be refused if it broke the specification (the check can fail)", async () => {
    const broken = { ...asyncApiDocument(), operations: { send: { action: "publish", channel: {} } } };
    const { diagnostics } = await new Parser().parse(JSON.stringify(broken));
    expect(diagnostics.filter((d) => d.severity === 0).length).toBeGreaterThan(0);
  });

  it("names the topics as deployed", () => {
    const channels = asyncApiDocument({ topic: "a", dlqTopic: "a.dlq" }).channels as Record<
      string,
      { address: string }
    >;
    expect(Object.values(channels).map((c) => c.address)).toEqual(["a", "a.dlq"]);
  });

  it("describes every dead-letter header the worker writes", async () => {
    const { document } = await new Parser().parse(JSON.stringify(asyncApiDocument()));
    const message = document?.components().messages().get("deadLetter");
    const headers = message?.headers()?.properties() ?? {};
    expect(Object.keys(headers).sort()).toEqual(Object.values(DLQ_HEADERS).sort());
  });
});

describe("the event's JSON Schema", () => {
  it("has the validator's fields, all required, with their bounds", () => {
    const schema = recordingCompletedJsonSchema() as {
      properties: Record<string, { maxLength?: number; pattern?: string }>;
      required: string[];
    };
    const fields = Object.keys(recordingCompletedSchema.shape);
    expect(Object.keys(schema.properties)).toEqual(fields);
    expect([...schema.required].sort()).toEqual([...fields].sort());
    expect(schema.properties.organization_id?.pattern).toBe("^[A-Za-z0-9._:-]+$");
    expect(schema.properties.recording_id?.maxLength).toBe(128);
  });
});
