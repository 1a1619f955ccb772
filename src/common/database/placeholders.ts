import type { EntityManager } from 'typeorm';

/** Bound-parameter markers of the engine: `$1, $2, ...` on PostgreSQL, `?` on SQLite. */
export function placeholders(manager: EntityManager) {
  const postgres = manager.connection.options.type === 'postgres';
  return (params: unknown[], value: unknown): string => {
    params.push(value);
    return postgres ? `$${params.length}` : '?';
  };
}
