import { DLQ_HEADERS, RECORDINGS_DLQ_TOPIC, RECORDINGS_TOPIC, recordingCompletedSchema } from "@vu/events";
import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The producers' documents are served beside the OpenAPI document, without a token.

let api: ApiServer;
beforeAll(async () => {
  api = await startApiServer({ nowMs: Date.parse("2026-11-22T12:00:00Z") });
});
afterAll(() => api.close());

describe("the producers' documents", () => {
  it("serves the AsyncAPI document of the topics", async () => {
    const res = await fetch(`${api.baseUrl}/api/v1/asyncapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      asyncapi: string;
      channels: Record<string, { address: string }>;
      components: { messages: { deadLetter: { headers: { properties: Record<string, unknown> } } } };
    };
    expect(doc.asyncapi).toBe("3.0.0");
    expect(Object.values(doc.channels).map((c) => c.address)).toEqual([
      RECORDINGS_TOPIC,
      RECORDINGS_DLQ_TOPIC,
    ]);
    expect(Object.keys(doc.components.messages.deadLetter.headers.properties)).toEqual(
      Object.values(DLQ_HEADERS),
    );
  });

  it("serves the event's JSON Schema as a JSON Schema document", async () => {
    const res = await fetch(`${api.baseUrl}/api/v1/recording-completed.schema.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/schema\+json/);
    const schema = (await res.json()) as { $schema: string; required: string[] };
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect([...schema.required].sort()).toEqual(Object.keys(recordingCompletedSchema.shape).sort());
  });
});
