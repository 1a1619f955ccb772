/**
 * The fixed minute window in Lua, one definition for both scripts that count it (the rate
 * limiter's storage and the quota's consume script): INCR the window's key, and give it its
 * time to live on its first hit only, so the count resets when the window ends rather than when
 * the limit was crossed. Leaves `hits` and `ttl` (ms left) as Lua locals.
 */
export function fixedWindowHit(key: string, windowMs: string): string {
  return `
local hits = redis.call('INCR', ${key})
local ttl = redis.call('PTTL', ${key})
if ttl < 0 then
  ttl = tonumber(${windowMs})
  redis.call('PEXPIRE', ${key}, ttl)
end`;
}

/** A script as sent: no indentation, no blank edges (fewer bytes per EVAL, same SHA each time). */
export function compactScript(source: string): string {
  return source.replace(/^\s+/gm, '').trim();
}
