/**
 * Secrets kept under a key that can be rotated: the current key seals, and every key still listed
 * (the current one first, then older ones) may open. A value opened by an older key is `stale`:
 * its owner re-seals it under the current key, so the older key can later be dropped.
 */
export interface Opened {
  plaintext: string;
  /** Opened by a key other than the current one: re-seal it. */
  stale: boolean;
}

/** The key materials to try, newest first, without repeats or blanks. */
export function keyMaterials(...materials: ReadonlyArray<string | undefined>): string[] {
  return [...new Set(materials.filter((m): m is string => m !== undefined && m.length > 0))];
}

/**
 * Opens `sealed` with the first key that authenticates it (AES-GCM refuses every other key);
 * undefined when none does.
 */
export function openWithAny<K>(keys: readonly K[], open: (key: K) => string): Opened | undefined {
  for (const [index, key] of keys.entries()) {
    try {
      return { plaintext: open(key), stale: index > 0 };
    } catch {
      // Not this key (or a damaged value): try the next one.
    }
  }
  return undefined;
}
