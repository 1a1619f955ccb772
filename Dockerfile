# The service's image (docs/operators.md "The image"). The build stage compiles dist/ with the dev
# tools; the runtime stage installs the production dependencies only (npm ci --omit=dev: the server
# and the CLI, `node dist/cli/main.js`, need nothing else) and runs as the unprivileged `node` user.
# Secrets and the network file are never part of the image: give them at run time (compose:
# env_file .env.production, and the network file mounted read-only at CHAIN_NETWORK_FILE).
# test/process/image-runtime.process-spec.ts runs the runtime stage's recipe without a container.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The postinstall (scripts/runtime/select-node.cjs) picks the Node that runs the project.
COPY package.json package-lock.json .npmrc ./
COPY scripts/runtime/ scripts/runtime/
RUN npm ci
COPY tsconfig.json tsconfig.build.json .swcrc ./
COPY src/ src/
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY scripts/runtime/ scripts/runtime/
# hardhat and typeorm name ts-node as an optional peer, so npm keeps it (with typescript and swc)
# even with --omit=dev; nothing built needs them: removed (about 100 MB).
RUN npm ci --omit=dev && npm cache clean --force \
  && rm -rf node_modules/ts-node node_modules/typescript node_modules/@swc node_modules/.bin/ts-node*
COPY --from=build /app/dist/ dist/
# Read at run time: the dashboard, our contracts' bytecode (deploy, devnet) and the ZK circuit.
COPY public/ public/
COPY contracts/artifacts/ contracts/artifacts/
COPY circuits/build/ circuits/build/
RUN mkdir -p /data && chown node:node /data
ENV PORT=3000 DATA_DIR=/data MALLOC_ARENA_MAX=2
USER node
EXPOSE 3000
# Readiness: 503 only while this instance drains or its own database does not answer.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--v8-pool-size=1", "dist/main.js"]
