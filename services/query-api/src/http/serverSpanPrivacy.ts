import { context } from "@opentelemetry/api";
import { getRPCMetadata, RPCType } from "@opentelemetry/core";
import type { RequestHandler } from "express";
import { queryParameterNames, REDACTED, redactPath } from "./requestLogSerializers";

/**
 * A request's server span says what its log line says, no more (requestLogSerializers.ts): the
 * path with any segment that looks like an e-mail address or a token redacted, the NAMES of the
 * query parameters, never a value (a member filter is an e-mail address), a header or the client
 * address. The HTTP instrumentation records the raw ones as the span starts; they are replaced
 * here, first thing, long before the span ends and is exported. Without tracing there is no span.
 */
export const serverSpanPrivacy: RequestHandler = (req, _res, next) => {
  const metadata = getRPCMetadata(context.active());
  const span = metadata?.type === RPCType.HTTP ? metadata.span : undefined;
  if (span?.isRecording()) {
    const url = req.originalUrl;
    const queryAt = url.indexOf("?");
    span.setAttributes({
      "url.path": redactPath(queryAt === -1 ? url : url.slice(0, queryAt)),
      "client.address": REDACTED,
      "network.peer.address": REDACTED,
      ...(queryAt === -1 ? {} : { "url.query": queryParameterNames(url.slice(queryAt + 1)).join("&") }),
      ...(req.headers["user-agent"] === undefined ? {} : { "user_agent.original": REDACTED }),
    });
  }
  next();
};
