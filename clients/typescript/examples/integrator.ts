/**
 * What an integrator writes with the typed client; `tsc -p clients/typescript` type-checks it
 * with --strict. Run: BASE=http://127.0.0.1:3000 EMAIL=... PASSWORD=... WALLET=0x... npx ts-node --swc
 * -O '{"module":"commonjs"}' clients/typescript/examples/integrator.ts (plain ts-node loads it as ESM).
 */
import { createDefiClient, wholeBuild, type ErrorEnvelope } from '../src';

async function main(): Promise<void> {
  const baseUrl = process.env.BASE ?? 'http://127.0.0.1:3000';
  const wallet = process.env.WALLET ?? '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

  const login = await createDefiClient({ baseUrl }).POST('/api/v1/auth/login', {
    body: { email: process.env.EMAIL ?? '', password: process.env.PASSWORD ?? '' },
  });
  if (login.error) throw new Error(`${login.error.code}: ${login.error.hint}`);
  const accessToken: string = login.data.accessToken;

  const dashboard = createDefiClient({ baseUrl, accessToken });
  const created = await dashboard.POST('/api/v1/api-keys', {
    body: { name: 'integrator', scopes: ['defi:swap', 'defi:preflight'] },
  });
  if (created.error) throw new Error(created.error.hint);
  const key: string = created.data.key;

  const api = createDefiClient({ baseUrl, apiKey: key });
  const config = await api.GET('/api/v1/defi/config');
  if (config.error) throw new Error(config.error.hint);
  const tokens: Array<{ symbol: string; address: string; decimals: number }> = config.data.tokens;
  const weth = tokens.find((token) => token.symbol === 'WETH')!.address;
  const tusdc = tokens.find((token) => token.symbol === 'tUSDC')!.address;

  const preflight = await api.GET('/api/v1/defi/preflight/{address}', {
    params: { path: { address: wallet } },
  });
  if (preflight.error) throw new Error(preflight.error.hint);
  const sessionActive: boolean = preflight.data.session.active;

  const swap = await api.POST('/api/v1/defi/swap', {
    body: { tokenIn: weth, tokenOut: tusdc, amount: '1000000000000000', userAddress: wallet },
    params: { query: sessionActive ? {} : { buildOnly: 'true' } },
  });
  if (swap.error) {
    const error: ErrorEnvelope = swap.error;
    const code: string = error.code;
    const hint: string = error.hint;
    throw new Error(`${code}: ${hint}`);
  }
  // Every build answers the whole build, or with callsFormat=eip5792 wallet_sendCalls parameters.
  const transaction: { to: string; data: string; value: string; gas: string } = wholeBuild(
    swap.data,
  ).transaction;
  process.stdout.write(`${JSON.stringify(transaction)}\n`);
}

void main();
