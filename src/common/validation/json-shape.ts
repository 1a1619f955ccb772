/**
 * Limits on the shape of a JSON body, checked on the raw text before it is parsed: a deeply
 * nested document overflows the stack of class-transformer (and of any recursive walker), so it
 * must never reach one. No legitimate body of this API nests deeper than a few levels.
 */
export const MAX_JSON_DEPTH = 16;
export const MAX_JSON_KEYS = 512;

export type JsonShapeViolation =
  { rule: 'maxDepth'; limit: number } | { rule: 'maxKeys'; limit: number };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;

/**
 * One linear pass over the bytes (strings skipped, escapes honoured): nesting depth of objects and
 * arrays, and the number of object members (one colon each outside strings). Malformed JSON is
 * left to the parser; this only refuses shapes that are too deep or too wide.
 */
export function checkJsonShape(
  raw: Uint8Array,
  limits = { maxDepth: MAX_JSON_DEPTH, maxKeys: MAX_JSON_KEYS },
): JsonShapeViolation | undefined {
  let depth = 0;
  let keys = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i += 1) {
    const byte = raw[i];
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth += 1;
      if (depth > limits.maxDepth) return { rule: 'maxDepth', limit: limits.maxDepth };
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth -= 1;
    else if (byte === COLON) {
      keys += 1;
      if (keys > limits.maxKeys) return { rule: 'maxKeys', limit: limits.maxKeys };
    }
  }
  return undefined;
}

/** A UTF-16 surrogate without its pair: JSON allows it (`"\ud800"`), Unicode and URI encoders do not. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}
