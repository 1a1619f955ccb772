import { userInfo } from 'node:os';
import { envOptional } from './env-reader';

/**
 * Who the operator is, for the audit trail of CLI changes (actor `{ type: "operator", id }`):
 * OPERATOR_ID when set (a name from the operator's identity provider), else the OS user running
 * the command. At most 64 characters (the audit column).
 */
export function operatorIdOf(env: Record<string, string | undefined> = process.env): string {
  const given = envOptional(env, 'OPERATOR_ID');
  if (given !== undefined) return given.slice(0, 64);
  try {
    return userInfo().username.slice(0, 64) || 'unknown';
  } catch {
    return 'unknown'; // no passwd entry for the uid (some containers)
  }
}
