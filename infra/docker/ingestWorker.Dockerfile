# syntax=docker/dockerfile:1
# The ingest-worker service, run from source with tsx like every workspace package (no build step).
# Build context: the repository root (see infra/docker-compose.yml).
FROM node:20-slim

# The pnpm version pinned in the root package.json.
RUN npm install --global pnpm@9.15.9

WORKDIR /app

# Dependencies first, from the lockfile alone, so source edits do not refetch them.
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./
RUN pnpm fetch

COPY . .
RUN pnpm install --frozen-lockfile --offline

ENV NODE_ENV=production
ENV METRICS_PORT=9464
EXPOSE 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9464/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# exec form: the worker is PID 1 and receives SIGTERM itself to commit offsets and stop cleanly.
CMD ["pnpm", "exec", "tsx", "services/ingest-worker/src/main.ts"]
