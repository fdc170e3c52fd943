# syntax=docker/dockerfile:1
# The ingest-worker service, compiled to JavaScript and run by plain Node with production dependencies
# only. Build context: the repository root (see infra/docker-compose.yml).

# --- build: every dependency, tsc, then a production-only deployment.
FROM node:20-slim AS build

# The pnpm version pinned in the root package.json.
RUN npm install --global pnpm@9.15.9

WORKDIR /app

# Dependencies first, from the lockfile alone, so source edits do not refetch them.
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./
# The patches pnpm applies (package.json pnpm.patchedDependencies): kafkajs' undecodable batches.
COPY patches ./patches
RUN pnpm fetch

COPY . .
RUN pnpm install --frozen-lockfile --offline
# tsc (tsconfig.build.json) → packages/*/dist and services/*/dist, the store's Lua beside its modules.
RUN pnpm run build
# The service with its production dependencies only; workspace packages are copied in with their dist/.
RUN pnpm --filter @vu/ingest-worker deploy --prod --offline /out

# --- runtime: Node, tini, the built service and its production dependencies; no TypeScript, no tsx.
FROM node:20-slim

RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY --from=build /out ./

ENV NODE_ENV=production
# `vu-dist`: workspace packages resolve to their built dist/ (their `exports` default to src/ for tsx
# and vitest); this holds for every node in the container, e.g. `node dist/cli/rebuild.js`.
ENV NODE_OPTIONS="--conditions=vu-dist --enable-source-maps"
ENV OPS_PORT=9464
USER node
EXPOSE 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9464/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# tini is PID 1 and passes SIGTERM to node, which commits offsets, leaves the group and exits
# (service-runtime's onShutdown); even before that handler is installed, SIGTERM ends node.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/main.js"]
