# syntax=docker/dockerfile:1
# One image, four commands: `gateway` (default), `worker`, `migrate`, `move-project` (see docs/operations.md
# § Containers). The TypeScript is compiled once here; the image runs `node` on dist/ with
# production dependencies only, as a non-root user.
#
#   docker build -t cms .
#   docker run --rm cms migrate          (DATABASE_URL, … in the environment)
#   docker run -p 1337:1337 cms          (the gateway)
#   docker run cms worker              (probes on :8081/healthz and /readyz)
#   docker run --rm cms move-project acme eu2   (DATABASE_URLS too; docs/operations.md § More than one Postgres cluster)
#
# test/integration/dockerfile-steps.test.ts runs these steps without a container engine.

ARG NODE_IMAGE=node:20.20.2-bookworm-slim

# The workspace manifests alone, so the install layers below are reused until a dependency changes.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN mkdir .manifests \
 && cp package.json package-lock.json .manifests/ \
 && find apps packages -mindepth 2 -maxdepth 2 -name package.json -exec cp --parents {} .manifests/ \;

# Every dependency (dev included): the dashboard's Vite build and the server's esbuild compile.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY --from=manifests /src/.manifests/ ./
RUN npm ci --no-audit --no-fund

# Compile: the dashboard's static build (apps/dashboard/dist) and the server bundles (dist/).
FROM deps AS build
COPY tsconfig.json ./
COPY packages/ packages/
COPY apps/ apps/
COPY scripts/build.ts scripts/cms-server.ts scripts/
RUN npm run build -w @cms/dashboard
RUN node --import tsx scripts/build.ts

# Production dependencies of the gateway and the worker only (no dashboard, CLI or dev packages);
# the workspace packages themselves are compiled into dist/.
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY --from=manifests /src/.manifests/ ./
RUN npm ci --omit=dev --workspace @cms/gateway --workspace @cms/worker --no-audit --no-fund \
 && rm -rf node_modules/@cms

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=1337 \
    WORKER_HEALTH_PORT=8081 \
    DATA_DIR=/data
WORKDIR /app
# pg_dump and psql (15, as the RDS module's engine) for `move-project` (copies a project's schema).
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-client \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 cms \
 && useradd --system --uid 10001 --gid cms --home-dir /app --shell /usr/sbin/nologin cms \
 && mkdir -p /data \
 && chown cms:cms /data
# Code and dependencies stay owned by root: the server cannot change them.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/dist ./dist
COPY --from=build /app/apps/dashboard/dist ./apps/dashboard/dist
USER 10001:10001
# 1337: the gateway (HTTP, /healthz, /readyz, /metrics); 8081: the worker's /healthz and /readyz.
EXPOSE 1337 8081
# GET /healthz of the gateway or the worker, whichever this container runs (dist/cms-server.js).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "dist/cms-server.js", "healthcheck"]
ENTRYPOINT ["node", "dist/cms-server.js"]
CMD ["gateway"]
