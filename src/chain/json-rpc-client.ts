/**
 * A lean JSON-RPC client for the hot-path reads (eth_call, eth_estimateGas): Node's fetch keeps
 * connections alive, and JSON is parsed natively. ethers' provider opened a new TCP connection per
 * request and converted every body between strings and bytes in JavaScript, which cost more CPU
 * per build than the build itself. Transactions (the attester) still go through ethers.
 */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** Revert data for reverts: a hex string, or nested ({ data: '0x…' }) on some nodes. */
    readonly data: unknown,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }
}

interface JsonRpcResponse<T> {
  result?: T;
  error?: { code: number; message: string; data?: unknown };
}

export class JsonRpcClient {
  private nextId = 1;

  constructor(private readonly url: string) {}

  /** Rejects with JsonRpcError when the node answered with an error, or a transport error. */
  async request<T>(method: string, params: unknown[], timeoutMs: number): Promise<T> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
      signal: AbortSignal.timeout(Math.max(1, timeoutMs)),
    });
    const text = await response.text();
    let body: JsonRpcResponse<T>;
    try {
      body = JSON.parse(text) as JsonRpcResponse<T>;
    } catch {
      throw new Error(`JSON-RPC ${method}: HTTP ${response.status}, body is not JSON`);
    }
    if (body.error) throw new JsonRpcError(body.error.code, body.error.message, body.error.data);
    if (!response.ok || !('result' in body))
      throw new Error(`JSON-RPC ${method}: HTTP ${response.status} without a result`);
    return body.result as T;
  }
}
