/**
 * `npm run client:generate`: boots the application without listening (SQLite in a temporary
 * directory, embedded devnet on an ephemeral port), builds its OpenAPI document and writes the
 * TypeScript client's types (clients/typescript/src/schema.d.ts) and the document beside them.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppModule } from '../../src/app.module';
import { buildOpenApiDocument } from '../../src/common/openapi/openapi-document';
import { CLIENT_DOCUMENT_PATH, CLIENT_SCHEMA_PATH, documentJson } from './client-files';
import { clientTypesFor } from './client-types';

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cgk-client-generate-'));
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    CHAIN_RPC_URL: '',
    DEVNET_PORT: '0',
    SEED_DEMO_ACCOUNT: 'false',
    LOG_LEVEL: 'silent',
    LOG_FORMAT: 'json',
  });
  // Configuration is read when the app is created, so this environment applies.
  const app = await NestFactory.create(AppModule, { bodyParser: false, logger: false });
  try {
    const document = buildOpenApiDocument(app);
    writeFileSync(CLIENT_SCHEMA_PATH, await clientTypesFor(document));
    writeFileSync(CLIENT_DOCUMENT_PATH, documentJson(document));
    process.stdout.write(`Wrote ${CLIENT_SCHEMA_PATH}\nWrote ${CLIENT_DOCUMENT_PATH}\n`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `client:generate failed: ${err instanceof Error ? err.stack : String(err)}\n`,
  );
  process.exit(1);
});
