import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { getAddress, Signature, Wallet } from 'ethers';
import { COMPLIANCE_HOOK_V3 } from '../../chain/abi/compliance-hook-v3';
import { ChainRpcService } from '../../chain/chain-rpc.service';
import {
  domainSeparatorOf,
  encodeAuthorizationHookData,
  TRADE_KIND,
  tradeAuthorizationDigest,
  tradeAuthorizationDomain,
  ZERO_POOL_ID,
} from '../../chain/encoding/trade-authorization';
import { NetworkService } from '../../chain/network/network.service';
import { HeldSigner, openSigner } from '../../chain/signers/open-signer';
import { ComplianceConfig } from '../../config/compliance.config';
import { InvalidConfigError } from '../../config/env-reader';
import { TradingConfig } from '../../config/trading.config';
import { attesterKeySources } from '../../compliance/sessions/attester-key-sources';
import { NonceSource } from './nonce-source';
import type { AuthorizationRequest, IssuedAuthorization } from './trade-authorization.types';

/**
 * Signs hook v3's per-trade authorizations (issue 54) with the authorizer key
 * (AUTHORIZER_PRIVATE_KEY, or AUTHORIZER_SIGNER=pkcs11; outside production the attester's key by
 * default). The domain separator is computed once; a key in the environment signs the digest
 * synchronously (no typed-data walk per build). Production refuses to start without its own key
 * when the network's hook is v3.
 */
@Injectable()
export class TradeAuthorizer implements OnApplicationShutdown {
  private readonly held: HeldSigner | null;
  private readonly key: Wallet | null;
  private readonly domainSeparator: string | null;
  private readonly nonces = new NonceSource();
  private readonly ttlSeconds: number;

  constructor(
    config: TradingConfig,
    compliance: ComplianceConfig,
    private readonly network: NetworkService,
    private readonly rpc: ChainRpcService,
  ) {
    this.ttlSeconds = config.authorizationTtlSeconds;
    const definition = network.definition;
    if (definition.hookVersion !== 3) {
      this.held = null;
      this.key = null;
      this.domainSeparator = null;
      return;
    }
    if (config.production && !config.authorizerPrivateKey && !config.authorizerPkcs11)
      throw new InvalidConfigError(
        'AUTHORIZER_PRIVATE_KEY',
        "is required in production mode when the network's hook is v3: 0x + 64 hex (or AUTHORIZER_SIGNER=pkcs11), an address the hook accepts (verify-network checks it)",
        undefined,
      );
    const source = config.authorizerPkcs11
      ? { pkcs11: config.authorizerPkcs11 }
      : config.authorizerPrivateKey
        ? { privateKey: config.authorizerPrivateKey }
        : attesterKeySources(compliance).primary;
    this.held = openSigner(source, null, 'AUTHORIZER_PKCS11_KEY_LABEL');
    this.key = this.held.signer instanceof Wallet ? this.held.signer : null;
    this.domainSeparator = domainSeparatorOf(
      tradeAuthorizationDomain(definition.chainId, definition.contracts.complianceHook),
    );
  }

  onApplicationShutdown(): void {
    this.held?.close();
  }

  /**
   * The latest deadline an authorization issued at chain time `now` may carry: a build that asks
   * for a later one is built to this one (AUTHORIZATION_TTL_SECONDS), so no authorization, and no
   * daily-limit reservation held for it, outlives the setting.
   */
  latestDeadline(now: number): number {
    return now + this.ttlSeconds;
  }

  /** True when the network's hook verifies authorizations (v3): only then are any issued. */
  get enabled(): boolean {
    return this.held !== null;
  }

  /** The authorizer addresses this instance signs with (empty when the hook is not v3). */
  addresses(): string[] {
    return this.held ? [this.held.address] : [];
  }

  /** Signs one authorization for `input`'s exact trade (see AuthorizationRequest). */
  async issue(input: AuthorizationRequest): Promise<IssuedAuthorization> {
    if (!this.held || !this.domainSeparator)
      throw new Error("trade authorizations need the network's hook v3");
    if (input.amount <= 0n) throw new Error('authorization amount must be positive');
    const route = input.route.map((id) => id.toLowerCase());
    const poolId = input.poolId.toLowerCase();
    if (route.length === 0 || route[0] !== poolId || route.length > 2)
      throw new Error('route must start with poolId and have one or two pools');
    const route2 = input.kind === 'swap' && route.length === 2;
    if (route2 && (input.nextAmountMax === undefined || input.nextAmountMax <= 0n))
      throw new Error('nextAmountMax is required for a two-pool route');
    const trader = getAddress(input.trader.toLowerCase());
    const deadline = input.deadline ?? Math.floor(Date.now() / 1000) + this.ttlSeconds;
    const swap = input.kind === 'swap';
    const message = {
      trader,
      poolId,
      kind: TRADE_KIND[input.kind],
      zeroForOne: swap ? input.zeroForOne : false,
      amount: swap && !input.exactOutput ? -input.amount : input.amount,
      nonce: this.nonces.next(trader),
      deadline: BigInt(deadline),
      nextPoolId: route2 ? route[1] : ZERO_POOL_ID,
      nextAmountMax: route2 ? input.nextAmountMax! : 0n,
    };
    const digest = tradeAuthorizationDigest(this.domainSeparator, message);
    const signature = this.key
      ? this.key.signingKey.sign(digest).serialized
      : Signature.from(await (this.held.signer as unknown as PkcsLike).signDigest(digest))
          .serialized;
    const hookData = encodeAuthorizationHookData(message, signature);
    const hookDataByPool: Record<string, string> = { [poolId]: hookData };
    if (message.nextPoolId !== ZERO_POOL_ID) hookDataByPool[route[1]] = '0x';
    return {
      id: digest,
      signer: this.held.address,
      deadline,
      nonce: message.nonce.toString(),
      hookData,
      hookDataByPool,
    };
  }

  /** Whether the hook has consumed `nonce` of `trader` (a mined trade used the authorization). */
  async isUsed(trader: string, nonce: string | bigint): Promise<boolean> {
    const raw = await this.rpc.call({
      to: this.network.contracts.complianceHook,
      data: COMPLIANCE_HOOK_V3.encodeFunctionData('isNonceUsed', [trader, BigInt(nonce)]),
    });
    return BigInt(raw) !== 0n;
  }
}

interface PkcsLike {
  signDigest(digest: string): Promise<Signature>;
}
