import { STATUS_CODES } from 'node:http';
import { ERROR_CATALOGUE, ErrorCode, ErrorPhase, isErrorCode } from '../errors/error-catalogue';

/**
 * What /docs shows under an error status: one named example per code of that status, each a
 * whole envelope as the service sends it (status text, the code's phase and default hint, a
 * typical message and, where the code carries them, typical details).
 */
export interface ErrorExample {
  summary: string;
  value: {
    error: string;
    code: ErrorCode;
    message: string;
    hint: string;
    phase: string;
    details?: Record<string, unknown>[];
    retryAfter?: number;
  };
}

/** A typical message and details per code (the service's own wording, with sample values). */
const SAMPLES: Partial<
  Record<ErrorCode, { message: string; details?: Record<string, unknown>[] }>
> = {
  INVALID_PARAMS: {
    message: 'Request validation failed: amount',
    details: [
      {
        field: 'amount',
        constraint: 'isUint128String',
        message: 'amount must be a positive decimal integer string below 2^128',
      },
    ],
  },
  INVALID_ADDRESS: {
    message: 'Invalid address in userAddress',
    details: [
      {
        field: 'userAddress',
        constraint: 'isEvmAddress',
        message:
          'userAddress must be a 0x-prefixed 40-hex-character address (mixed case must be a valid EIP-55 checksum)',
      },
    ],
  },
  PAYLOAD_TOO_LARGE: { message: 'Request body is larger than 16 KiB' },
  UNSUPPORTED_MEDIA_TYPE: { message: 'Content-Type text/plain is not accepted; send JSON' },
  NOT_FOUND: { message: 'No API key with this id in your account' },
  PROOF_INVALID: { message: 'The proof does not verify against the verification key' },
  RANGE_NOT_SATISFIABLE: { message: 'The requested range starts past the end of the file' },
  IDEMPOTENCY_KEY_REUSED: {
    message: 'This Idempotency-Key was used with another request body',
    details: [
      {
        field: 'Idempotency-Key',
        constraint: 'idempotencyKey',
        message: 'used with another request body',
      },
    ],
  },
  API_KEY_LIMIT_REACHED: {
    message: 'Your plan allows 10 active API keys and your account holds 10',
    details: [{ limit: 10, active: 10 }],
  },
  SIWE_INVALID: {
    message: 'The SIWE message is for another domain',
    details: [{ reason: 'SIWE_DOMAIN', message: 'The SIWE message is for another domain' }],
  },
  API_KEY_MISSING: {
    message: 'No credentials: send an X-API-Key header or Authorization: Bearer <accessToken>',
  },
  API_KEY_FORMAT_INVALID: { message: 'The API key does not match cgk_{test|live}_{48 hex}' },
  API_KEY_PREFIX_NOT_FOUND: { message: 'No API key with this prefix exists' },
  API_KEY_HASH_MISMATCH: { message: 'The API key does not match the stored key' },
  API_KEY_INACTIVE: { message: 'This API key was revoked' },
  API_KEY_EXPIRED: { message: 'This API key expired at 2027-01-01T00:00:00.000Z' },
  API_KEY_SCOPE_MISSING: {
    message: 'This API key lacks the defi:swap scope',
    details: [{ requiredScope: 'defi:swap', keyScopes: ['defi:preflight', 'usage:read'] }],
  },
  ROLE_FORBIDDEN: {
    message: 'The viewer role cannot do this; it needs owner or admin',
    details: [{ role: 'viewer', required: ['owner', 'admin'] }],
  },
  MFA_REQUIRED: { message: 'Two-factor sign-in is on for this user: send otp' },
  MFA_INVALID: { message: 'The one-time code is not valid' },
  WEBHOOK_URL_NOT_ALLOWED: {
    message: 'The webhook URL resolves to a private address',
    details: [{ field: 'url', constraint: 'publicAddress', message: 'resolves to 10.0.0.1' }],
  },
  JWT_MISSING: { message: 'The Authorization header is not "Bearer <accessToken>"' },
  JWT_INVALID: { message: 'The access token is invalid or expired' },
  INVALID_CREDENTIALS: { message: 'Email or password is incorrect' },
  RATE_LIMIT_EXCEEDED: { message: 'Too many requests for this account in the current minute' },
  QUOTA_EXCEEDED: {
    message: 'The monthly quota of 100000 requests is used up',
    details: [{ limit: 100000, used: 100000, resetsAt: '2026-12-01T00:00:00.000Z' }],
  },
  DEMO_DISABLED: { message: 'Demo session activation is disabled in production mode' },
  INSTITUTION_OWNERSHIP_MISMATCH: {
    message: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720 is bound to another account',
  },
  UNSUPPORTED_TOKEN: {
    message: 'tokenIn 0x5FbDB2315678afecb367f032d93F642f64180aa3 is not a supported token',
    details: [{ field: 'tokenIn' }],
  },
  NO_ROUTE: {
    message: 'No listed pool or two-hop route connects tWBTC to tEURC',
    details: [
      {
        tokenIn: '0x2450382CeECa110749f1a0EE992984A3B1c5A707',
        tokenOut: '0x87A1cc7b9EC7c214cA544Cf173E4e0e7854e3A21',
        tradableFromTokenIn: ['WETH', 'tUSDC'],
      },
    ],
  },
  SESSION_NOT_ACTIVE: {
    message: 'Wallet 0xa0Ee7A142d267C1f36714E4a8F75612F20a79720 has no active compliance session',
    details: [{ activeUntil: null }],
  },
  WALLET_SANCTIONED: {
    message:
      "Wallet 0xa0Ee7A142d267C1f36714E4a8F75612F20a79720 is on the sanctions list of this network's oracle: the compliance hook refuses its trades",
    details: [{ walletAddress: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' }],
  },
  BALANCE_INSUFFICIENT: {
    message: 'The wallet cannot pay: WETH balance 0 < 100000000000000000',
    details: [{ token: 'WETH', balance: '0', required: '100000000000000000' }],
  },
  TOKEN_NOT_ALLOWED: {
    message: "Your account's policy does not allow trading tWBTC (allowed: WETH, tUSDC)",
    details: [{ token: 'tWBTC', allowed: ['WETH', 'tUSDC'] }],
  },
  TRADE_LIMIT_EXCEEDED: {
    message:
      "This trade gives 0.2 WETH; with 1.4 used in the last 24 hours it would pass your policy's limit of 1.5 per 24 hours",
    details: [{ token: 'WETH', limit: '1.5', window: '24h', used: '1.4', requested: '0.2' }],
  },
  PROOF_REPLAYED: { message: 'This challenge was already used' },
  CREDENTIAL_EXPIRED: { message: 'The credential expires before the chain time now' },
  // Attestation sources and the compliance policy (issue 40).
  ACTIVATION_RATE_LIMITED: {
    message:
      'Wallet 0xa0Ee7A142d267C1f36714E4a8F75612F20a79720 was activated 10 times in the last hour: no activation is sent for 1800 s',
    details: [{ limit: 10, windowSeconds: 3600 }],
  },
  ATTESTATION_NOT_FOUND: {
    message:
      'Wallet 0xa0Ee7A142d267C1f36714E4a8F75612F20a79720 has no valid attestation of an accepted source: verified-account: no attestation of this schema is indexed for the wallet',
    details: [{ source: 'verified-account', reason: 'not_found', uid: null }],
  },
  ATTESTATION_REVOKED: {
    message:
      'Wallet 0xa0Ee7A142d267C1f36714E4a8F75612F20a79720 has no valid attestation of an accepted source: verified-account: the attestation was revoked',
    details: [
      {
        source: 'verified-account',
        reason: 'revoked',
        uid: '0x5b0f6f6c1f35d9a4b1e0b1fbb1b1e8b27c3f1c8a0f1f9b1e2d3c4b5a69788796',
      },
    ],
  },
  ATTESTATION_EXPIRED: {
    message:
      'Wallet 0xa0Ee7A142d267C1f36714E4a8F75612F20a79720 has no valid attestation of an accepted source: verified-account: the attestation has expired',
    details: [
      {
        source: 'verified-account',
        reason: 'expired',
        uid: '0x5b0f6f6c1f35d9a4b1e0b1fbb1b1e8b27c3f1c8a0f1f9b1e2d3c4b5a69788796',
      },
    ],
  },
  ATTESTATION_SOURCE_NOT_ACCEPTED: {
    message:
      "Wallet 0xa0Ee7A142d267C1f36714E4a8F75612F20a79720 has no valid attestation of an accepted source: verified-account: the indexed attestation was made by another attester than the source's",
    details: [
      {
        source: 'verified-account',
        reason: 'other_attester',
        uid: '0x5b0f6f6c1f35d9a4b1e0b1fbb1b1e8b27c3f1c8a0f1f9b1e2d3c4b5a69788796',
      },
    ],
  },
  COMPLIANCE_POLICY_REFUSED: {
    message:
      'Your compliance policy refuses 0xa0Ee7A142d267C1f36714E4a8F75612F20a79720: country XX (source verified-country) is denied by the policy',
    details: [{ rule: 'countries.deny', source: 'verified-country' }],
  },
  APPROVAL_REQUIRED: {
    message:
      "This trade needs 2 approval(s) of your account's owner, admin (approval request 3f0c6a5e-1d2b-4c8e-9a7f-0b1c2d3e4f50)",
    details: [
      {
        approvalId: '3f0c6a5e-1d2b-4c8e-9a7f-0b1c2d3e4f50',
        quorum: 2,
        approvers: [{ userId: '6b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d', role: 'admin' }],
        approvals: 0,
        status: 'pending',
        expiresAt: '2026-11-29T04:00:00.000Z',
      },
    ],
  },
  APPROVAL_PENDING: {
    message: 'Approval request 3f0c6a5e-1d2b-4c8e-9a7f-0b1c2d3e4f50 has 1 of 2 approvals',
    details: [
      {
        approvalId: '3f0c6a5e-1d2b-4c8e-9a7f-0b1c2d3e4f50',
        quorum: 2,
        approvers: [{ userId: '6b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d', role: 'admin' }],
        approvals: 1,
        status: 'pending',
        expiresAt: '2026-11-29T04:00:00.000Z',
      },
    ],
  },
  APPROVAL_REJECTED: {
    message: 'Approval request 3f0c6a5e-1d2b-4c8e-9a7f-0b1c2d3e4f50 was rejected',
  },
  APPROVAL_EXPIRED: {
    message: 'Approval request 3f0c6a5e-1d2b-4c8e-9a7f-0b1c2d3e4f50 expired',
  },
  APPROVAL_USED: {
    message: 'Approval request 3f0c6a5e-1d2b-4c8e-9a7f-0b1c2d3e4f50 was already used',
  },
  APPROVAL_MISMATCH: {
    message:
      'Approval request 3f0c6a5e-1d2b-4c8e-9a7f-0b1c2d3e4f50 is for another trade than this build',
  },
  APPROVAL_NOT_REQUIRED: {
    message:
      'The policy no longer requires approval request 3f0c6a5e-1d2b-4c8e-9a7f-0b1c2d3e4f50: it is ended',
  },
  APPROVAL_SELF: { message: 'You asked for this trade: another member must decide' },
  APPROVAL_CLOSED: {
    message: 'Approval request 3f0c6a5e-1d2b-4c8e-9a7f-0b1c2d3e4f50 is approved',
    details: [{ approvalId: '3f0c6a5e-1d2b-4c8e-9a7f-0b1c2d3e4f50', status: 'approved' }],
  },
  CREDENTIAL_ISSUER_REVOKED: {
    message: 'The credential\'s issuer "acme-kyc" was revoked by the operator',
  },
  POOL_DEPRECATED: {
    message:
      'Position 42 is in the pool 0x0b2e0654dc9843b28645037cdd90e9329a57f9e67a3bc63d2da6ffa79c043843 of a deprecated ComplianceHook (0x5aaE1008032BE4DA8aca3408f51aE35147f78880)',
    details: [
      {
        poolId: '0x0b2e0654dc9843b28645037cdd90e9329a57f9e67a3bc63d2da6ffa79c043843',
        deprecated: true,
        currentPool: {
          poolId: '0xca1244629cb282dbf98515327cc6a5cfffdb6fb76a370308afdc0f7387925214',
          hooks: '0x793Cb621B87012fBbD427963A5e98635541fca80',
        },
      },
    ],
  },
  POOL_AMBIGUOUS: {
    message: 'token0/token1 have 2 pools: say which one with poolId',
    details: [
      {
        choices: [
          {
            poolId: '0x21f278268095ff8bf0a49150241b34d38fad804a9395880247b94cee439fcda4',
            fee: 100,
            tickSpacing: 1,
          },
          {
            poolId: '0xa1e797ed322c28e7734e65f98c2ee284ad0c4033de3a62095b316f8636e0e363',
            fee: 500,
            tickSpacing: 10,
          },
        ],
      },
    ],
  },
  POSITION_NOT_FOUND: {
    message: 'Position 42 does not exist in this pool',
    details: [{ tokenId: '42' }],
  },
  POSITION_NOT_OWNED: {
    message:
      'Position 42 is owned by 0x024b5a06b820260DFe222213a4f016EE57b26099, not by 0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
    details: [{ tokenId: '42', owner: '0x024b5a06b820260DFe222213a4f016EE57b26099' }],
  },
  CHAIN_UNAVAILABLE: { message: 'The chain RPC did not answer in time' },
  SERVICE_UNAVAILABLE: { message: 'The database is unavailable' },
  BUILD_FAILED: {
    message: 'Bad ticks: tickLower must be a multiple of the tickSpacing 60',
    details: [{ rule: 'TICK_SPACING' }],
  },
  SIMULATION_REVERTED: {
    message: 'The transaction reverts when simulated: SLIPPAGE_EXCEEDED',
    details: [{ revertCode: 'SLIPPAGE_EXCEEDED', revertReason: 'V4TooLittleReceived' }],
  },
  INTERNAL_ERROR: { message: 'An unexpected error occurred' },
  BROADCAST_FAILED: { message: 'The activation transaction was not mined in time' },
  NONCE_CONFLICT: {
    message: 'Not sent: nonce 6 was already used (the next nonce is 7)',
    details: [
      {
        txHash: '0xd1870c1ac612d3274380d28191ee9d3ef4157e4fcce5807186ce1e30f4b7c0c3',
        from: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
        nonce: 6,
        expectedNonce: 7,
      },
    ],
  },
  FEE_TOO_LOW: {
    message:
      "Not sent: the node refused the transaction's fee (below the base fee or the node's minimum)",
  },
  BROADCAST_TARGET_NOT_ALLOWED: {
    message:
      'The relay does not send this transaction: not a contract this service builds for (to 0x5FbDB2315678afecb367f032d93F642f64180aa3, selector 0xa9059cbb)',
    details: [
      {
        field: 'signedTransaction',
        to: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
        selector: '0xa9059cbb',
        reason: 'not a contract this service builds for',
      },
    ],
  },
  ALLOWANCE_INSUFFICIENT: {
    message: 'The Permit2 allowance of WETH for the UniversalRouter is short',
  },
  SESSION_EXPIRES_BEFORE_DEADLINE: {
    message:
      'The compliance session ends at 2026-11-25T21:00:00.000Z, before the transaction deadline 2026-11-25T21:20:00.000Z; after that the transaction reverts',
  },
};

/** The example envelope of `code` (in `phase`, by default the catalogue's), as /docs shows it. */
export function errorExample(
  code: ErrorCode,
  phase: ErrorPhase = ERROR_CATALOGUE[code].phase,
): ErrorExample {
  const entry = ERROR_CATALOGUE[code];
  const sample = SAMPLES[code];
  const message = sample?.message ?? sentenceOf(code);
  return {
    summary: `${code}: ${message}`,
    value: {
      error: STATUS_CODES[entry.status] ?? 'Error',
      code,
      message,
      hint: entry.hint,
      phase,
      ...(sample?.details ? { details: sample.details } : {}),
      ...(entry.status === 429 ? { retryAfter: 12 } : {}),
    },
  };
}

/** Whether `code` has a message of its own (the others get one made from the code). */
export function hasSampleMessage(code: ErrorCode): boolean {
  return SAMPLES[code] !== undefined;
}

export interface NamedCode {
  code: ErrorCode;
  phase: ErrorPhase;
}

const PHASES: readonly string[] = ['validation', 'auth', 'preflight', 'build', 'broadcast'];

/**
 * The codes of `status` a response's description names, in the order it names them: the codes an
 * operation declares (ApiErrors writes "`CODE` (phase): hint", which also gives the phase; auth
 * decorators name theirs, in the catalogue's phase).
 */
export function codesNamedFor(status: number, description: string): NamedCode[] {
  const found = new Map<ErrorCode, ErrorPhase>();
  for (const [, word, phase] of description.matchAll(
    /\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b(?:` \((\w+)\))?/g,
  )) {
    if (!isErrorCode(word) || ERROR_CATALOGUE[word].status !== status || found.has(word)) continue;
    const named = phase !== undefined && PHASES.includes(phase);
    found.set(word, named ? (phase as ErrorPhase) : ERROR_CATALOGUE[word].phase);
  }
  return [...found].map(([code, phase]) => ({ code, phase }));
}

function sentenceOf(code: string): string {
  const words = code.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
