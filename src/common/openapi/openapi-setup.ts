import { INestApplication } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import { buildOpenApiDocument } from './openapi-document';

/** Serves the reference at /<path> and the document at /<path>/json. */
export function setUpOpenApi(app: INestApplication, path: string): void {
  SwaggerModule.setup(path, app, buildOpenApiDocument(app), {
    jsonDocumentUrl: `${path}/json`,
  });
}
