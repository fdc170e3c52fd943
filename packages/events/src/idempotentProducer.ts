import { type Kafka, Partitioners, type Producer } from "kafkajs";

/**
 * The one way the project produces: idempotent (the broker drops a retried duplicate), one request
 * in flight (so retries keep the order), with kafkajs' default (Java-compatible murmur2)
 * partitioner, named so kafkajs does not warn about it.
 */
export function createIdempotentProducer(kafka: Kafka): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
}
