/**
 * THE error catalogue: every code the service can return, with its HTTP status, the pipeline
 * phase it belongs to (spec §7: validation -> auth -> preflight -> build -> broadcast) and the
 * default hint shown to developers. Clients branch on `code`; these entries are a public contract.
 */
export type ErrorPhase = 'validation' | 'auth' | 'preflight' | 'build' | 'broadcast';

export interface CatalogueEntry {
  status: number;
  phase: ErrorPhase;
  hint: string;
}

const entries = {
  // --- validation ---------------------------------------------------------------------------
  INVALID_PARAMS: {
    status: 400,
    phase: 'validation',
    hint: 'Fix the fields listed in details and send the request again; see /docs for the schema.',
  },
  INVALID_ADDRESS: {
    status: 400,
    phase: 'validation',
    hint: 'Send addresses as 0x followed by 40 hex characters; mixed case must be a valid EIP-55 checksum. Token fields take addresses, not symbols: GET /api/v1/defi/config lists each token with its address (native ETH is the zero address).',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    phase: 'validation',
    hint: 'Request bodies are limited to 16 KiB; send only the documented fields.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    phase: 'validation',
    hint: 'Send the body as JSON with the header Content-Type: application/json (curl: -H "Content-Type: application/json").',
  },
  POOL_DEPRECATED: {
    status: 400,
    phase: 'validation',
    hint: 'That pool belongs to a deprecated ComplianceHook version: build against the current pool (GET /api/v1/defi/config lists it). Positions in the deprecated pool can still be exited (decrease, collect, burn).',
  },
  POOL_AMBIGUOUS: {
    status: 400,
    phase: 'validation',
    hint: 'The pair has several pools (fee tiers): send poolId, one of the pools the hint names (GET /api/v1/defi/config lists them all).',
  },
  WEBHOOK_URL_NOT_ALLOWED: {
    status: 400,
    phase: 'validation',
    hint: 'Webhook URLs must be https and resolve to a public address (not loopback, private, link-local or metadata); see WEBHOOK_ALLOWED_HOSTS.',
  },
  NOT_FOUND: {
    status: 404,
    phase: 'validation',
    hint: 'Check the method and path against the API reference at /docs.',
  },
  PROOF_INVALID: {
    status: 400,
    phase: 'validation',
    hint: 'Fetch a challenge with GET /verify/challenge, generate a Groth16 proof of your credential for this wallet and that challenge, then POST /verify again.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    phase: 'validation',
    hint: 'An Idempotency-Key names one request: send a new key for a different body, or the same body to get the first response again.',
  },
  API_KEY_LIMIT_REACHED: {
    status: 409,
    phase: 'validation',
    hint: 'Revoke keys you no longer use (DELETE /api/v1/api-keys/:id) or upgrade the plan; revoked keys do not count.',
  },
  BROADCAST_TARGET_NOT_ALLOWED: {
    status: 400,
    phase: 'validation',
    hint: 'The relay sends only transactions this service builds: UniversalRouter execute (swap), PositionManager modifyLiquidities/multicall (liquidity), Permit2 approve, and approve(Permit2, amount) on a supported token (GET /api/v1/defi/config lists the addresses). Send anything else with your own RPC provider.',
  },
  SIWE_INVALID: {
    status: 400,
    phase: 'validation',
    hint: 'Get a nonce from GET /onboarding/nonce, sign a Sign-In-with-Ethereum message for this domain and chain with the wallet, and send message + signature.',
  },
  // Issue 52: a byte range past the end of a file served under /zk/ (Content-Range names its size).
  RANGE_NOT_SATISFIABLE: {
    status: 416,
    phase: 'validation',
    hint: 'The Range starts past the end of the file: the Content-Range header (bytes */<size>) and GET /verify/artifacts give its size. Ask for a range within it, or for the whole file without Range.',
  },

  // --- auth ---------------------------------------------------------------------------------
  API_KEY_MISSING: {
    status: 401,
    phase: 'auth',
    hint: 'Authenticate with an X-API-Key header (backends) or Authorization: Bearer <accessToken> from POST /auth/login (dashboard).',
  },
  API_KEY_FORMAT_INVALID: {
    status: 401,
    phase: 'auth',
    hint: 'API keys look like <prefix>_test_<48 hex> or <prefix>_live_<48 hex>; copy the whole key shown at creation.',
  },
  API_KEY_PREFIX_NOT_FOUND: {
    status: 401,
    phase: 'auth',
    hint: 'No key with this prefix exists; create one in the dashboard (/dashboard, API keys) or with POST /api/v1/api-keys.',
  },
  API_KEY_HASH_MISMATCH: {
    status: 401,
    phase: 'auth',
    hint: 'The key does not match the stored key; copy the full key again or create a new one.',
  },
  API_KEY_INACTIVE: {
    status: 401,
    phase: 'auth',
    hint: 'This key was revoked; create a new key with POST /api/v1/api-keys.',
  },
  API_KEY_EXPIRED: {
    status: 401,
    phase: 'auth',
    hint: 'This key is past its expiry date; create a new key with POST /api/v1/api-keys.',
  },
  API_KEY_SCOPE_MISSING: {
    status: 403,
    phase: 'auth',
    hint: "Add the scope this endpoint requires (details name it) to the key: PATCH /api/v1/api-keys/:id with the key's scopes plus it (a member's dashboard login, or the dashboard's API keys page, Edit); the key and its secret stay the same.",
  },
  ROLE_FORBIDDEN: {
    status: 403,
    phase: 'auth',
    hint: 'Your role in this account does not allow this action; ask an owner or admin (details name the roles allowed).',
  },
  MFA_REQUIRED: {
    status: 401,
    phase: 'auth',
    hint: 'This user has two-factor sign-in: send the 6-digit code from the authenticator app (or a recovery code) as `otp` with the email and password.',
  },
  MFA_INVALID: {
    status: 401,
    phase: 'auth',
    hint: 'The one-time code is wrong, expired or already used; wait for the next code in the authenticator app, or use an unused recovery code.',
  },
  JWT_MISSING: {
    status: 401,
    phase: 'auth',
    hint: 'Send Authorization: Bearer <accessToken>, with the token from POST /auth/login.',
  },
  JWT_INVALID: {
    status: 401,
    phase: 'auth',
    hint: 'Get a new access token with POST /auth/login, or POST /auth/refresh with your refresh token.',
  },
  INVALID_CREDENTIALS: {
    status: 401,
    phase: 'auth',
    hint: 'Check the email and password; accounts are created by an operator with the CLI.',
  },
  RATE_LIMIT_EXCEEDED: {
    status: 429,
    phase: 'auth',
    hint: 'Wait retryAfter seconds before retrying; higher limits come with a plan upgrade.',
  },
  QUOTA_EXCEEDED: {
    status: 402,
    phase: 'auth',
    hint: 'The account used its monthly request quota; it resets at details.resetsAt (UTC calendar month). Upgrade the plan (GET /api/v1/plans lists them) or ask the operator for a higher quota.',
  },
  DEMO_DISABLED: {
    status: 403,
    phase: 'auth',
    hint: 'Demo session activation exists on the test network only; in production submit a proof to POST /verify.',
  },

  // --- preflight ----------------------------------------------------------------------------
  INSTITUTION_OWNERSHIP_MISMATCH: {
    status: 403,
    phase: 'preflight',
    hint: 'This wallet is bound to another account; bind it to yours with POST /onboarding/register (demo mode), or use a wallet of your own.',
  },
  UNSUPPORTED_TOKEN: {
    status: 400,
    phase: 'preflight',
    hint: 'Use a supported token; GET /api/v1/defi/config lists them.',
  },
  NO_ROUTE: {
    status: 400,
    phase: 'preflight',
    hint: 'No listed pool, and no two pools through one other token, connect these tokens: GET /api/v1/defi/config lists the pools.',
  },
  SESSION_NOT_ACTIVE: {
    status: 412,
    phase: 'preflight',
    hint: 'Activate a compliance session, then send the request again: POST /onboarding/activate-session-attestation (an EAS attestation the wallet holds), POST /verify with a proof in production (a zero-knowledge credential proof), or POST /onboarding/activate-session-demo on the test network; GET /defi/preflight/:address shows the session. Or pass buildOnly=true to build anyway.',
  },
  WALLET_SANCTIONED: {
    status: 403,
    phase: 'preflight',
    hint: 'The sanctions oracle of this network (compliance.sanctionsOracle) lists this wallet: the compliance hook refuses its trades and no session can be opened for it. Nothing to retry; contact your compliance team.',
  },
  ALLOWANCE_INSUFFICIENT: {
    status: 200,
    phase: 'preflight',
    hint: 'Send the transactions in approvals[] in order (token -> Permit2, then Permit2 -> spender) before this one, or sign permitData instead of the approvals marked replaceableByPermit; a batch wallet (EIP-5792) sends calls[] as one batch.',
  },
  SESSION_EXPIRES_BEFORE_DEADLINE: {
    status: 200,
    phase: 'preflight',
    hint: 'The compliance session ends before the transaction deadline: broadcast before the session ends, or renew it first.',
  },
  BALANCE_INSUFFICIENT: {
    status: 400,
    phase: 'preflight',
    hint: 'Fund the wallet or lower the amount (details lists token, balance and required); or pass buildOnly=true to build anyway.',
  },
  PROOF_REPLAYED: {
    status: 409,
    phase: 'preflight',
    hint: 'This challenge was already used: fetch a new one with GET /verify/challenge, prove again with the same credential and POST /verify.',
  },
  CREDENTIAL_EXPIRED: {
    status: 400,
    phase: 'preflight',
    hint: 'The compliance credential is past its expiry; ask the issuer for a new credential, then prove again.',
  },
  // Attestation sources (design §9): a session opened from an EAS attestation.
  ATTESTATION_NOT_FOUND: {
    status: 403,
    phase: 'preflight',
    hint: 'The wallet holds no attestation of an accepted source (details lists each source checked): have it attested by the source (e.g. Coinbase Verifications), then call again.',
  },
  ATTESTATION_REVOKED: {
    status: 403,
    phase: 'preflight',
    hint: "The wallet's attestation was revoked by its attester (details names the source and uid): get a new attestation, then call again.",
  },
  ATTESTATION_EXPIRED: {
    status: 403,
    phase: 'preflight',
    hint: "The wallet's attestation has expired (details names the source and uid): renew it with its attester, then call again.",
  },
  ATTESTATION_SOURCE_NOT_ACCEPTED: {
    status: 403,
    phase: 'preflight',
    hint: 'The attestation found is not of an accepted source (another attester or schema; details says which), or the source named is not accepted. GET /api/v1/compliance/policy lists the accepted sources (knownSources).',
  },
  // Issue 52: activation transactions per wallet are limited (the attester pays each one).
  ACTIVATION_RATE_LIMITED: {
    status: 429,
    phase: 'preflight',
    hint: "This wallet's session was activated as often as the service allows in the window (details: limit, windowSeconds): wait retryAfter seconds. A session that is still open is answered without a transaction (alreadyActive), so there is no need to activate it again.",
  },
  COMPLIANCE_POLICY_REFUSED: {
    status: 403,
    phase: 'preflight',
    hint: "Your account's compliance policy refuses this wallet: details names the rule (sources.any, sources.all, countries.deny, countries.allow, minSessionSeconds) and the source. POST /api/v1/compliance/policy/evaluate shows each source's result; owners and admins change the policy with PUT /api/v1/compliance/policy.",
  },
  // Issue 54: the trade rules of the account policy (design §10), checked before anything is built.
  TOKEN_NOT_ALLOWED: {
    status: 403,
    phase: 'preflight',
    hint: "Your account's policy allows trading only the tokens in trading.tokens.allow (details names the token and the list): trade one of those, or have an owner or admin change the policy (PUT /api/v1/compliance/policy).",
  },
  TRADE_LIMIT_EXCEEDED: {
    status: 403,
    phase: 'preflight',
    hint: 'The trade gives more than a limit of your account\'s policy allows (details[0]: token, limit, window "trade" or "24h", used, requested, in whole units): lower the amount, or for the 24 h window wait until earlier trades leave it (POST /api/v1/compliance/policy/evaluate shows what is used).',
  },
  CREDENTIAL_ISSUER_REVOKED: {
    status: 403,
    phase: 'preflight',
    hint: "The operator revoked this credential's issuer: its credentials open no new session. Get a credential from another issuer the service accepts.",
  },
  POSITION_NOT_FOUND: {
    status: 404,
    phase: 'preflight',
    hint: "No live position of this pool has that tokenId (never minted, burned, or another pool); GET /api/v1/defi/positions?owner=<wallet> lists a wallet's positions.",
  },
  POSITION_NOT_OWNED: {
    status: 403,
    phase: 'preflight',
    hint: 'Only the wallet that owns the position NFT may change it: send userAddress = the owner (GET /api/v1/defi/positions/<tokenId> shows it).',
  },
  // Issue 55: four eyes. A build above the policy's trading.approvals threshold waits for a
  // quorum of members (details[0]: approvalId, quorum, approvers, approvals, status).
  APPROVAL_REQUIRED: {
    status: 403,
    phase: 'preflight',
    hint: "This trade needs the approval of other members of your account (details: approvalId, quorum, approvers). They approve it with POST /api/v1/approvals/{approvalId}/approve (or on the dashboard's Approvals page); then send the same build again with approvalId in its body.",
  },
  APPROVAL_PENDING: {
    status: 403,
    phase: 'preflight',
    hint: 'The approval request has not reached its quorum yet (details: approvals, quorum): send the same build again once enough members approved it; GET /api/v1/approvals/{approvalId} shows its status.',
  },
  APPROVAL_REJECTED: {
    status: 403,
    phase: 'preflight',
    hint: 'A member rejected this approval request (details: reason, by). Build again without approvalId to open a new request.',
  },
  APPROVAL_EXPIRED: {
    status: 403,
    phase: 'preflight',
    hint: 'The approval request was not approved in time (trading.approvals.ttlSeconds) or its approved build was not sent before it expired. Build again without approvalId to open a new request.',
  },
  APPROVAL_USED: {
    status: 409,
    phase: 'preflight',
    hint: 'This approval was already used for its one build. Build again without approvalId to open a new request.',
  },
  APPROVAL_MISMATCH: {
    status: 409,
    phase: 'preflight',
    hint: 'An approval covers exactly the trade requested (wallet, operation, tokens, amounts, route bounds): send the same body as the build that opened it, or build without approvalId to open a new request for this one.',
  },
  APPROVAL_NOT_REQUIRED: {
    status: 409,
    phase: 'preflight',
    hint: "The account's policy no longer requires an approval for this trade (trading.approvals changed since the request was opened): the request is ended. Build again without approvalId.",
  },
  APPROVAL_SELF: {
    status: 403,
    phase: 'auth',
    hint: 'The member who asked for a trade (or who created the API key that asked) cannot approve it: another member of an approving role must.',
  },
  APPROVAL_CLOSED: {
    status: 409,
    phase: 'validation',
    hint: 'The approval request is no longer pending (details: status): it cannot be approved or rejected any more.',
  },
  CHAIN_UNAVAILABLE: {
    status: 503,
    phase: 'preflight',
    hint: 'The chain RPC did not answer in time; retry shortly. GET /health/ready shows the chain status.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    phase: 'preflight',
    hint: 'A backing service (database) is unavailable; retry shortly. GET /health/ready shows which.',
  },

  // --- build --------------------------------------------------------------------------------
  BUILD_FAILED: {
    status: 400,
    phase: 'build',
    hint: 'Check tokens, amounts and tick ranges (ticks must be multiples of the pool tickSpacing within MIN/MAX_TICK, lower < upper).',
  },
  SIMULATION_REVERTED: {
    status: 400,
    phase: 'build',
    hint: 'The transaction reverts when simulated now (details.revertCode, details.revertReason): fix the cause (e.g. SLIPPAGE_EXCEEDED: raise slippage or lower amountOutMinimum) and build again. Pass buildOnly=true to get it anyway, with this as a warning.',
  },
  INTERNAL_ERROR: {
    status: 500,
    phase: 'build',
    hint: 'Unexpected error; retry, and quote errorId when contacting support.',
  },

  // --- broadcast ----------------------------------------------------------------------------
  BROADCAST_FAILED: {
    status: 502,
    phase: 'broadcast',
    hint: 'The on-chain transaction failed or was not mined; retry shortly.',
  },
  NONCE_CONFLICT: {
    status: 409,
    phase: 'broadcast',
    hint: "The transaction's nonce is not the wallet's next one (details.expectedNonce): it was used by another transaction, or earlier ones are missing. Sign again with the wallet's pending nonce (eth_getTransactionCount at pending).",
  },
  FEE_TOO_LOW: {
    status: 400,
    phase: 'broadcast',
    hint: "The node refused the fee: maxFeePerGas (or gasPrice) is below the block's base fee or the node's minimum. Sign again with fees from eth_feeHistory / eth_gasPrice (e.g. maxFeePerGas = 2 x base fee + priority fee).",
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof entries;
export const ERROR_CATALOGUE: Readonly<Record<ErrorCode, CatalogueEntry>> = entries;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.prototype.hasOwnProperty.call(entries, value);
}
