import { ApiSchema } from '@nestjs/swagger';
import type { ApiSchemaOptions } from '@nestjs/swagger';

/**
 * A whole request body as the schema's example: /docs pre-fills "Try it out" with it instead of a
 * body assembled from every property's example, which would also send optional fields that only
 * go together (permit without a signature of it) or exclude each other (amountInMaximum with
 * EXACT_INPUT, liquidity with liquidityBps). The example must be accepted as is (a test sends it).
 */
export function ApiRequestExample(
  example: Record<string, unknown>,
  options: ApiSchemaOptions = {},
): ClassDecorator {
  // @nestjs/swagger copies every @ApiSchema option but `name` onto the component schema.
  const schema: ApiSchemaOptions & { example: Record<string, unknown> } = { example, ...options };
  return ApiSchema(schema);
}
