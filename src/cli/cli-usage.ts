export class CliUsageError extends Error {}

export function required(flags: Record<string, string>, name: string): string {
  const value = flags[name];
  if (!value) throw new CliUsageError(`--${name} is required`);
  return value;
}
