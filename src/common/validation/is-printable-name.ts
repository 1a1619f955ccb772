import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';

export const PRINTABLE_NAME_CONSTRAINT = 'isPrintableName';

/**
 * Characters a human-entered name (an API key's, an account's) may not hold: controls (Cc: NUL,
 * CR, LF, tab, ESC...), format characters (Cf: the bidi overrides and isolates U+202A-U+202E and
 * U+2066-U+2069, which make a name display reversed or out of order, zero-width characters
 * U+200B-U+200F, U+2060, U+FEFF, the soft hyphen, tags), lone surrogates (Cs) and the line and
 * paragraph separators (Zl, Zp). Each lets a name look like another one in a list, a log or a
 * terminal (Trojan Source, CVE-2021-42574). Emoji joined by U+200D are refused with the rest.
 */
const REFUSED = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

const REFUSED_SUMMARY =
  'control characters (NUL, line breaks, tabs), bidirectional overrides and isolates, zero-width or other invisible format characters';

/** Why `value` is not a printable name (one sentence naming `field`), or undefined when it is. */
export function printableNameProblem(field: string, value: string): string | undefined {
  const refused = REFUSED.exec(value);
  if (refused) {
    return `${field} contains ${codePoint(refused[0])}; names may not hold ${REFUSED_SUMMARY}`;
  }
  if (value.trim() === '') return `${field} must contain a visible character`;
  return undefined;
}

export function isPrintableName(value: unknown): value is string {
  return typeof value === 'string' && printableNameProblem('name', value) === undefined;
}

/** A name people type and other people read (dashboard, logs): see REFUSED for what is refused. */
export function IsPrintableName(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: PRINTABLE_NAME_CONSTRAINT,
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: ({ property, value }: ValidationArguments) =>
          (typeof value === 'string' && printableNameProblem(property, value)) ||
          `${property} must be a string`,
        ...options,
      },
      validator: { validate: (value: unknown) => isPrintableName(value) },
    });
}

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
