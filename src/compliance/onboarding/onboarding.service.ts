import { Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import type { Principal } from '../../auth/principal';
import { ApiError } from '../../common/errors/api-error';
import { AppConfig } from '../../config/app.config';
import { ComplianceConfig } from '../../config/compliance.config';
import type { RequestMeta } from '../../common/http/request-meta';
import { ComplianceActivity } from '../compliance-activity';
import { SessionAdmission } from '../session-admission';
import type { ActivatedSession } from '../sessions/sessions.service';
import { buildSiweMessage, verifySiweWithContractWallets } from '../siwe';
import { ContractSignatures } from '../../chain/contract-signatures.service';
import { WalletsService } from '../wallets/wallets.service';
import { RegisterWalletDto } from './dto/register-wallet.dto';
import { SiweNoncesService } from './siwe-nonces.service';

/** A demo activation: a new session (its mined transaction), or the still-fresh one (no tx). */
export type DemoActivation = Omit<ActivatedSession, 'txHash' | 'blockNumber'> & {
  txHash: string | null;
  blockNumber: number | null;
  walletBound: true;
  alreadyActive: boolean;
};

const SIWE_STATEMENT =
  'Bind this wallet to my account on the compliance-gated DeFi transaction builder.';

@Injectable()
export class OnboardingService {
  constructor(
    private readonly wallets: WalletsService,
    private readonly nonces: SiweNoncesService,
    private readonly activity: ComplianceActivity,
    private readonly admission: SessionAdmission,
    private readonly app: AppConfig,
    private readonly config: ComplianceConfig,
    private readonly contractSignatures: ContractSignatures,
  ) {}

  private get demo(): boolean {
    return this.app.mode === 'demo';
  }

  async issueNonce(principal: Principal, walletAddress?: string) {
    const now = new Date();
    const { nonce, expiresAt } = await this.nonces.issue(principal.accountId, now.getTime());
    const { siweDomain: domain, siweChainId: chainId, siweUri: uri } = this.config;
    const message = walletAddress
      ? buildSiweMessage({
          domain,
          address: walletAddress,
          uri,
          chainId,
          nonce,
          issuedAt: now,
          expirationTime: expiresAt,
          statement: SIWE_STATEMENT,
        })
      : undefined;
    return {
      nonce,
      expiresAt: expiresAt.toISOString(),
      domain,
      chainId,
      uri,
      ...(message ? { message } : {}),
    };
  }

  /**
   * Demo mode: binds, taking the wallet over from another account if needed. Production: a valid
   * SIWE message + signature by the wallet with one of our nonces is required, and a wallet bound
   * elsewhere stays there (403). Checks run in the spec's phase order: the signature (validation)
   * before ownership (preflight).
   */
  async register(principal: Principal, body: RegisterWalletDto, meta?: RequestMeta) {
    const walletAddress = getAddress(body.walletAddress.toLowerCase());
    if (!this.demo || body.message !== undefined || body.signature !== undefined) {
      await this.checkSiwe(principal.accountId, walletAddress, body);
    }
    const result = await this.wallets.bind(
      walletAddress,
      principal.accountId,
      this.demo ? 'rebind' : 'keep',
    );
    await this.activity.walletBound(principal, result, meta);
    return {
      walletAddress,
      accountId: principal.accountId,
      bound: true,
      // Only that it moved: naming the account it left would disclose another institution's id.
      rebound: result.reboundFrom !== null,
    };
  }

  /**
   * Test network only. The wallet must be the caller's: an unbound wallet is bound to the caller
   * once every check passed (so nobody else can take over a session you opened), one bound
   * elsewhere is refused. A session that needs no renewal is answered as it is (no transaction).
   */
  async activateDemoSession(
    principal: Principal,
    wallet: string,
    meta?: RequestMeta,
  ): Promise<DemoActivation> {
    if (!this.demo) {
      throw new ApiError('DEMO_DISABLED', 'Demo session activation is disabled in production mode');
    }
    const { current } = await this.admission.admit({
      principal,
      wallet,
      presented: { kind: 'demo' },
      meta,
    });
    if (current)
      return {
        ...current,
        txHash: null,
        blockNumber: null,
        walletBound: true,
        alreadyActive: true,
      };
    const session = await this.admission.open(wallet);
    await this.activity.sessionActivated(principal, session, { via: 'demo' }, meta);
    return { ...session, walletBound: true, alreadyActive: false };
  }

  private async checkSiwe(
    accountId: string,
    walletAddress: string,
    body: RegisterWalletDto,
  ): Promise<void> {
    if (body.message === undefined || body.signature === undefined) {
      throw new ApiError(
        'SIWE_INVALID',
        'Production mode binds a wallet only with a Sign-In-with-Ethereum message and its signature',
        {
          details: [
            {
              field: body.message === undefined ? 'message' : 'signature',
              reason: 'SIWE_INVALID',
              message: 'is required',
            },
          ],
        },
      );
    }
    // An EOA's signature recovers to the wallet; a Safe's is its owners', judged by the Safe.
    const verified = await verifySiweWithContractWallets(
      { message: body.message, signature: body.signature },
      {
        expectedDomain: this.config.siweDomain,
        expectedChainId: this.config.siweChainId,
        expectedAddress: walletAddress,
        now: new Date(),
        maxAgeSeconds: this.config.siweNonceTtlSeconds,
      },
      (address, hash, signature) => this.contractSignatures.accepts(address, hash, signature),
    );
    if (!verified.ok) {
      throw new ApiError('SIWE_INVALID', verified.message, {
        details: [{ reason: verified.reason, message: verified.message }],
      });
    }
    if (!(await this.nonces.consume(accountId, verified.nonce))) {
      const message =
        'The SIWE nonce is unknown, expired, already used or was issued to another account';
      throw new ApiError('SIWE_INVALID', message, { details: [{ reason: 'SIWE_NONCE', message }] });
    }
  }
}
