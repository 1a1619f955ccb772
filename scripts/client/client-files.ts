import { join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';

export const CLIENT_DIR = join(__dirname, '..', '..', 'clients', 'typescript');
export const CLIENT_SCHEMA_PATH = join(CLIENT_DIR, 'src', 'schema.d.ts');
export const CLIENT_DOCUMENT_PATH = join(CLIENT_DIR, 'openapi.json');

/** The document as committed beside the types (the served key order, trailing newline). */
export function documentJson(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
