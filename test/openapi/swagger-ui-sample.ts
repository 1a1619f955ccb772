/**
 * The request a new integrator gets from /docs ("Try it out" in Swagger UI) for an operation:
 * the body Swagger UI pre-fills from the schema, and the parameters it pre-fills from their
 * examples. Swagger UI's rule, which this mirrors: a schema's own `example` wins; else `default`,
 * else the first `enum` value; an object lists every property (optional ones too), an array one
 * item; a bare string is "string", a number 0, a boolean true.
 */
export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  example?: unknown;
  default?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  readOnly?: boolean;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
  schema?: Schema;
}

export interface MediaType {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}

export interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
  security?: Array<Record<string, string[]>>;
}

export interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** Every body sample /docs offers for a JSON body: its named examples, else the schema's sample. */
export function bodySamples(document: Document, media: MediaType): Record<string, unknown> {
  if (media.examples) {
    return Object.fromEntries(
      Object.entries(media.examples).map(([name, example]) => [name, example.value]),
    );
  }
  if (media.example !== undefined) return { example: media.example };
  return { schema: sampleOf(document, media.schema ?? {}) };
}

export function sampleOf(document: Document, schema: Schema, depth = 0): unknown {
  const resolved = resolve(document, schema);
  if (depth > 10) return undefined;
  if (resolved.example !== undefined) return resolved.example;
  if (resolved.default !== undefined) return resolved.default;
  if (resolved.enum?.length) return resolved.enum[0];
  if (resolved.allOf) {
    return Object.assign(
      {},
      ...resolved.allOf.map((part) => sampleOf(document, part, depth + 1) as object),
    );
  }
  const alternative = resolved.oneOf?.[0] ?? resolved.anyOf?.[0];
  if (alternative) return sampleOf(document, alternative, depth + 1);
  if (resolved.properties || resolved.type === 'object') {
    const sample: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(resolved.properties ?? {})) {
      if (resolve(document, property).readOnly) continue;
      sample[name] = sampleOf(document, property, depth + 1);
    }
    return sample;
  }
  if (resolved.type === 'array') return [sampleOf(document, resolved.items ?? {}, depth + 1)];
  if (resolved.type === 'integer' || resolved.type === 'number') return 0;
  if (resolved.type === 'boolean') return true;
  return stringSample(resolved.format);
}

/** The value Swagger UI pre-fills for a parameter, or undefined when it leaves the field empty. */
export function parameterSample(document: Document, parameter: Parameter): unknown {
  if (parameter.example !== undefined) return parameter.example;
  const named = Object.values(parameter.examples ?? {})[0];
  if (named) return named.value;
  const schema = resolve(document, parameter.schema ?? {});
  return schema.example ?? schema.default;
}

function resolve(document: Document, schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return { ...resolve(document, document.components.schemas[name] ?? {}), ...omitRef(schema) };
}

function omitRef(schema: Schema): Schema {
  const { $ref: _ref, ...rest } = schema;
  return rest;
}

function stringSample(format: string | undefined): string {
  switch (format) {
    case 'date-time':
      return new Date().toISOString();
    case 'date':
      return new Date().toISOString().slice(0, 10);
    case 'email':
      return 'user@example.com';
    case 'uuid':
      return '3fa85f64-5717-4562-b3fc-2c963f66afa6';
    default:
      return 'string';
  }
}
