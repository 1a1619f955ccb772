/**
 * Values of the request examples /docs shows: the embedded devnet's deployment (fixed addresses,
 * funded development accounts), so that every example is accepted as is there.
 */
export const EXAMPLE = {
  WETH: '0x77139Fa81c4434893f9D7e033C3e3903C46B820D',
  tUSDC: '0x993706027b3eC9d8b03A962CAaa15C133A52707c',
  /** The devnet market's 8-decimal token: no pool with tUSDC, a route through WETH. */
  tWBTC: '0x2450382CeECa110749f1a0EE992984A3B1c5A707',
  universalRouter: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
  positionManager: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
  /** Development account 9: funded with ETH, WETH and tUSDC, and used by no tour in the docs. */
  wallet: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
  /** 2030-03-17: a deadline / expiry in the future. */
  future: 1900000000,
} as const;
