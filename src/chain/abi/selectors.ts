import type { Interface } from 'ethers';

/** The 4-byte selector of `contract`'s function `name`; a name the ABI lacks fails at load. */
export function selectorOf(contract: Interface, name: string): string {
  const fn = contract.getFunction(name);
  if (!fn) throw new Error(`the ABI has no function ${name}`);
  return fn.selector;
}

/**
 * Selectors of one contract's functions under the names a module uses: a list where the names
 * are the functions', a record (`{ erc20Allowance: 'allowance' }`) where they differ.
 */
export function selectorsOf<K extends string>(
  contract: Interface,
  functions: readonly K[] | Record<K, string>,
): Record<K, string> {
  const entries: Array<[K, string]> = Array.isArray(functions)
    ? functions.map((name: K) => [name, name])
    : (Object.entries(functions) as Array<[K, string]>);
  return Object.fromEntries(
    entries.map(([key, name]) => [key, selectorOf(contract, name)]),
  ) as Record<K, string>;
}
