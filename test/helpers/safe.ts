/**
 * Safe e2e helpers: a Safe created by the CLI's own command (in process), owners signing typed
 * data as a wallet does (eth_signTypedData_v4 through ethers), and the execTransaction a third
 * party signs and sends.
 */
import { Contract, TypedDataField, Wallet } from 'ethers';
import {
  concatSafeSignatures,
  encodeExecTransaction,
  safeMessageTypedData,
  SafeTx,
  TypedData,
} from '../../src/chain/safe/safe-transactions';
import { safeCreateCommand } from '../../src/cli/safe-command';

/** `npm run cli -- safe create --owners ... --threshold N --rpc URL --json`, in process. */
export async function createSafeWithCli(
  rpcUrl: string,
  owners: readonly string[],
  threshold: number,
  extra: string[] = [],
): Promise<{ address: string; created: boolean; txHash: string | null }> {
  const { exitCode, output } = await safeCreateCommand(
    [
      '--owners',
      owners.join(','),
      '--threshold',
      String(threshold),
      '--rpc',
      rpcUrl,
      '--json',
      ...extra,
    ],
    {},
  );
  expect(exitCode).toBe(0);
  return JSON.parse(output) as { address: string; created: boolean; txHash: string | null };
}

/** Each owner signs the typed data (EIP712Domain dropped, as ethers wants it); Safe order. */
export async function ownersSign(owners: readonly Wallet[], typed: TypedData): Promise<string> {
  const types = Object.fromEntries(
    Object.entries(typed.types).filter(([name]) => name !== 'EIP712Domain'),
  ) as Record<string, TypedDataField[]>;
  const signatures = await Promise.all(
    owners.map(async (owner) => ({
      signer: owner.address,
      signature: await owner.signTypedData(typed.domain, types, typed.message),
    })),
  );
  return concatSafeSignatures(signatures);
}

/** Owners' SafeMessage signatures of `hash` for `safe` (ERC-1271, e.g. a SIWE message's hash). */
export function ownersSignHash(
  owners: readonly Wallet[],
  chainId: number,
  safe: string,
  hash: string,
): Promise<string> {
  return ownersSign(owners, safeMessageTypedData(chainId, safe, hash));
}

/** A build's safeTransaction as the SafeTx the encoders take. */
export function safeTxOf(view: Record<string, unknown>): SafeTx {
  return {
    to: view.to as string,
    value: BigInt(view.value as string),
    data: view.data as string,
    operation: view.operation as 0 | 1,
    safeTxGas: BigInt(view.safeTxGas as string),
    baseGas: BigInt(view.baseGas as string),
    gasPrice: BigInt(view.gasPrice as string),
    gasToken: view.gasToken as string,
    refundReceiver: view.refundReceiver as string,
    nonce: BigInt(view.nonce as string),
  };
}

/**
 * `sender` signs execTransaction(safeTx, signatures) to `safe`; the gas limit is estimated, or
 * `gasLimit` when the call would revert (a trade without a session).
 */
export async function signExec(
  sender: Wallet,
  safe: string,
  safeTx: SafeTx,
  signatures: string,
  gasLimit?: bigint,
): Promise<string> {
  const populated = await sender.populateTransaction({
    to: safe,
    data: encodeExecTransaction(safeTx, signatures),
    ...(gasLimit === undefined ? {} : { gasLimit }),
  });
  return sender.signTransaction(populated);
}

/** Moves `amount` of `token` from `from` to `to` (funding a Safe). */
export async function transferToken(
  from: Wallet,
  token: string,
  to: string,
  amount: bigint,
): Promise<void> {
  const erc20 = new Contract(token, ['function transfer(address to, uint256 amount)'], from);
  await (await (erc20.transfer(to, amount) as Promise<{ wait(): Promise<unknown> }>)).wait();
}
