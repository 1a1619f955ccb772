/**
 * A `data` column of JSON: jsonb on PostgreSQL (arrives parsed), text on SQLite (arrives as a
 * string). The audit trail and the operator events store their small `data` objects with it.
 */
export const JSON_COLUMN = {
  to: (value: Record<string, unknown> | null) => (value == null ? null : JSON.stringify(value)),
  from: (value: unknown) =>
    value == null ? null : typeof value === 'string' ? (JSON.parse(value) as object) : value,
};
