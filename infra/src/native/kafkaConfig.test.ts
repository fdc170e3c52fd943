import { describe, expect, it } from "vitest";
import { kafkaLayout, serverProperties } from "./kafkaConfig";
import { parseBrokers } from "./kafkaProbe";

describe("serverProperties", () => {
  const text = serverProperties(kafkaLayout("/data/kafka"), { port: 19092, controllerPort: 19093 });
  const props = new Map(
    text.split("\n").flatMap((line) => (line.includes("=") ? [line.split("=", 2) as [string, string]] : [])),
  );

  it("describes a single-node KRaft broker on loopback", () => {
    expect(props.get("process.roles")).toBe("broker,controller");
    expect(props.get("controller.quorum.voters")).toBe("1@127.0.0.1:19093");
    expect(props.get("listeners")).toBe("PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093");
    expect(props.get("log.dirs")).toBe("/data/kafka/data");
  });

  it("keeps internal topics at one replica and leaves topic creation to the stack", () => {
    expect(props.get("offsets.topic.replication.factor")).toBe("1");
    expect(props.get("transaction.state.log.min.isr")).toBe("1");
    expect(props.get("auto.create.topics.enable")).toBe("false");
    expect(props.get("num.partitions")).toBe("6");
  });
});

describe("parseBrokers", () => {
  it("splits KAFKA_BROKERS and drops blanks", () => {
    expect(parseBrokers(" a:9092, b:9092 ,,")).toEqual(["a:9092", "b:9092"]);
  });
});
