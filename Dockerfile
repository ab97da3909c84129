# Toolplane: build with dev dependencies, run with production ones as the unprivileged `node` user.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY test/conformance/node-runtime/package.json ./test/conformance/node-runtime/
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
COPY console ./console
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
# bubblewrap sandboxes stdio plugins (docs/operations.md, "Plugin sandbox"). As a non-root user it
# needs unprivileged user namespaces: run the container with seccomp and AppArmor unconfined and
# `systempaths=unconfined` (a fresh /proc cannot be mounted over Docker's masked one), as
# docker-compose.yml does; otherwise Toolplane logs one warning and runs plugins unsandboxed.
RUN apt-get update \
  && apt-get install -y --no-install-recommends bubblewrap \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 TOOLPLANE_DATA_DIR=/data
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/src/main.js"]
