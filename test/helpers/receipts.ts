/**
 * Receipts e2e helpers (issue 56): read a receipt, verify its JWS (and its execution's) with
 * `jose` against the service's JWKS, wait for its execution, and read what a mined transaction
 * really did to the wallet (balances before and after, independent of the service's decoding).
 */
import { createHash } from 'node:crypto';
import { compactVerify, createLocalJWKSet, JSONWebKeySet } from 'jose';
import type { JsonRpcProvider, TransactionReceipt } from 'ethers';
import { Contract } from 'ethers';
import request from 'supertest';
import { ERC20 } from '../../src/chain/abi/erc20';
import type { TestApp } from './app';
import { pollUntil } from './wait';

export const ETH = '0x0000000000000000000000000000000000000000';

/** A receipt signing key for the suites that start in production mode (a test key, nothing else). */
export const TEST_RECEIPT_SIGNING_KEY =
  '{"kty":"EC","crv":"P-256","x":"KH_V0yDXfVkGcm1UfMg3AQSp6nDBJ0e3WWt0v2UBBms","y":"N9kZjnuN5GsfPQJg3XA4ma6VdQYphFuOORwWwY9AKdI","d":"LrhryypoLa7YcGE7TX29N6VlAnr4Z2BmX-VjsNk_SCM"}';

export interface BalanceChange {
  token: string;
  delta: string;
}

export interface ReceiptBody {
  id: string;
  jws: string;
  receipt: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  executionJws: string | null;
}

export async function getReceipt(t: TestApp, token: string, id: string): Promise<ReceiptBody> {
  const res = await request(t.server)
    .get(`/api/v1/compliance/receipts/${id}`)
    .set('Authorization', `Bearer ${token}`)
    .expect(200);
  return res.body as ReceiptBody;
}

export async function jwksOf(t: TestApp): Promise<JSONWebKeySet> {
  return (await request(t.server).get('/.well-known/jwks.json').expect(200)).body as JSONWebKeySet;
}

/** Verifies a compact JWS against the JWKS (ES256 only), answering its payload and header. */
export async function verifyJws(jws: string, jwks: JSONWebKeySet) {
  const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(jwks), {
    algorithms: ['ES256'],
  });
  return { payload: JSON.parse(Buffer.from(payload).toString('utf8')), protectedHeader };
}

/** The same JWS with one byte of its payload changed (a character of the base64url text). */
export function alteredByOneByte(jws: string): string {
  const [header, payload, signature] = jws.split('.');
  const json = Buffer.from(payload, 'base64url');
  const i = json.indexOf('"delta":"') + '"delta":"'.length + 1; // a digit of an amount
  json[i] = json[i] === 0x31 ? 0x32 : 0x31;
  return [header, json.toString('base64url'), signature].join('.');
}

export function digestOf(jws: string): string {
  return createHash('sha256').update(jws).digest('base64url');
}

export function waitForExecution(t: TestApp, token: string, id: string, timeoutMs = 20_000) {
  return pollUntil(
    `receipt ${id} execution`,
    () => getReceipt(t, token, id),
    (body) => body.executionJws !== null,
    { timeoutMs, intervalMs: 100 },
  );
}

/**
 * What the wallet's balances of `tokens` (ETH as the zero address) did across `send`, read on
 * chain before and after; ETH without the gas the transaction paid. Sorted like receipts are.
 */
export async function realChanges(
  provider: JsonRpcProvider,
  wallet: string,
  tokens: string[],
  send: () => Promise<TransactionReceipt | string>,
): Promise<{ changes: BalanceChange[]; receipt: TransactionReceipt }> {
  const read = (token: string, blockTag?: number) =>
    token === ETH
      ? provider.getBalance(wallet, blockTag)
      : (new Contract(token, ERC20, provider).balanceOf(wallet, { blockTag }) as Promise<bigint>);
  const before = await Promise.all(tokens.map((token) => read(token)));
  const sent = await send();
  const receipt = typeof sent === 'string' ? (await provider.getTransactionReceipt(sent))! : sent;
  const after = await Promise.all(tokens.map((token) => read(token, receipt.blockNumber)));
  const fee = receipt.gasUsed * receipt.gasPrice;
  const changes = tokens
    .map((token, i) => ({
      token,
      delta: after[i] - before[i] + (token === ETH && receipt.from === wallet ? fee : 0n),
    }))
    .filter((c) => c.delta !== 0n)
    .sort((a, b) => (a.token.toLowerCase() < b.token.toLowerCase() ? -1 : 1))
    .map((c) => ({ token: c.token, delta: c.delta.toString() }));
  return { changes, receipt };
}
