# Bogwan in one image: the server, its web app and the backup engine.
# Build:  docker build -t bogwan .
# Run:    docker run -d -p 3000:3000 -v bogwan-data:/data bogwan   (see compose.yaml and README "Deploying")
# scripts/docker-steps.mjs performs these steps on a host without Docker (same commands, same order).

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: toolchain for the native addons (better-sqlite3, the vault codec), then the builds ----
FROM ${NODE_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
# npm ci also runs the root prepare step (vault and server builds, native codec check).
RUN npm ci
RUN npm run build
RUN npm prune --omit=dev

# ---- runtime: no compiler, no sources beyond what runs, a user of its own ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    BOGWAN_DATA_DIR=/data
RUN groupadd --system bogwan \
 && useradd --system --gid bogwan --home-dir /data --no-create-home --shell /usr/sbin/nologin bogwan \
 && mkdir -p /data \
 && chown bogwan:bogwan /data \
 && chmod 700 /data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages ./packages
COPY --from=build /app/apps/server/package.json ./apps/server/package.json
COPY --from=build /app/apps/server/bin ./apps/server/bin
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/web/package.json ./apps/web/package.json
COPY --from=build /app/apps/web/dist ./apps/web/dist
USER bogwan
VOLUME ["/data"]
EXPOSE 3000
# Readiness: database, migrations, blob store and Redis (when set) answer. Node's fetch: the slim image has no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=8", "apps/server/dist/main.js"]
