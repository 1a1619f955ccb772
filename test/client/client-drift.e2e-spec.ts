/**
 * The committed client types must be what `npm run client:generate` makes from the document the
 * app serves: a controller change without regenerating fails here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import {
  CLIENT_DOCUMENT_PATH,
  CLIENT_SCHEMA_PATH,
  documentJson,
} from '../../scripts/client/client-files';
import { createTestApp, TestApp } from '../helpers/app';

describe('clients/typescript is generated from the served document', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('has the committed types and document equal to what /docs/json gives now', async () => {
    const served = (await request(t.server).get('/docs/json').expect(200)).body;
    const hint = 'run `npm run client:generate` and commit clients/typescript';
    expect({
      hint,
      same: readFileSync(CLIENT_DOCUMENT_PATH, 'utf8') === documentJson(served),
    }).toEqual({
      hint,
      same: true,
    });
    const types = typesFor(served);
    expect(readFileSync(CLIENT_SCHEMA_PATH, 'utf8')).toBe(types);
    expect(types).toContain('ErrorEnvelope');
  });
});

/** openapi-typescript is an ES module graph Jest cannot load: generate in a Node child process. */
function typesFor(document: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'cgk-drift-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    return execFileSync(
      process.execPath,
      [require.resolve('ts-node/dist/bin'), '--swc', 'scripts/client/print-types.ts', file],
      { cwd: join(__dirname, '..', '..'), encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
