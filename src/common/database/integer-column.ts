import type { ValueTransformer } from 'typeorm';

/**
 * A bigint column read as a JS number (PostgreSQL's driver answers bigint as a string; SQLite as a
 * number): for unix times and block numbers, which stay far below 2^53.
 */
export const integerColumn: ValueTransformer = {
  to: (value: number) => value,
  from: (value: string | number) => Number(value),
};
