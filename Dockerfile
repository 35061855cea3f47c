# syntax=docker/dockerfile:1
# Steward's API server, job worker and migrations, one image (see compose.yaml and README "Run it on real
# infrastructure"). The service runs its TypeScript through tsx, a runtime dependency, so the image needs
# no compile step: stage one installs the production dependencies, stage two copies them beside the source.

# ---- dependencies: production packages only, from the lockfile -------------------------------------------
FROM node:20.20.2-bookworm-slim AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
# Optional dependencies stay: esbuild (under tsx) ships its Linux binary as one.
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error \
    && npm cache clean --force

# ---- runtime -------------------------------------------------------------------------------------------
FROM node:20.20.2-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/var/lib/steward \
    LOG_FORMAT=json
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY src ./src
# The sandbox's demo business (read only when STEWARD_ENV=sandbox).
COPY sandbox ./sandbox
# The image's own user (uid 1000 in the node images), owning nothing but the data directory.
RUN mkdir -p /var/lib/steward && chown node:node /var/lib/steward
USER node
EXPOSE 8080
# Liveness: GET /v1/health on the port the server listens on (node's fetch: the slim image has no curl).
# Four misses 15 s apart before "unhealthy" leave a minute to start (no --start-period: dockerfilelint misreads it).
HEALTHCHECK --interval=15s --timeout=5s --retries=4 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `npm run server` without npm in between, so SIGTERM reaches the server and it drains before exiting.
# The worker and migrations run the same image with `node --import tsx src/main/worker.ts` / `migrate.ts`.
CMD ["node", "--import", "tsx", "src/main/server.ts"]
