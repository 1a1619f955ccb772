import { Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import { ApiError } from '../../common/errors/api-error';
import { ComplianceConfig } from '../../config/compliance.config';
import { SanctionsScreen } from '../screening/sanctions-screen.service';
import { AttesterService } from './attester.service';

/** An activated compliance session, as the onboarding and verify endpoints return it. */
export interface ActivatedSession {
  walletAddress: string;
  /** ISO 8601 (UTC) and unix seconds of the same instant: the session is active strictly before it. */
  activeUntil: string;
  activeUntilUnix: number;
  txHash: string;
  blockNumber: number;
}

/** Compliance sessions live on chain (ComplianceRegistry.activeUntil); this opens them. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly attester: AttesterService,
    private readonly screen: SanctionsScreen,
    private readonly config: ComplianceConfig,
  ) {}

  /** The wallet's session end and the chain's clock (unix s), read at the same block. */
  sessionStatus(wallet: string): Promise<{ activeUntil: number; chainTime: number }> {
    return this.attester.sessionOf(getAddress(wallet));
  }

  /**
   * Opens (or renews) the session of `wallet` for SESSION_TTL_SECONDS from the chain's current
   * time, never past `notAfter` (unix s: a credential's expiry) when given.
   */
  async activate(wallet: string, notAfter?: number): Promise<ActivatedSession> {
    const walletAddress = getAddress(wallet);
    // A sanctioned wallet gets no session (403 WALLET_SANCTIONED): the hook would refuse it anyway.
    await this.screen.assertNotSanctioned(walletAddress);
    const chainNow = await this.attester.chainTime();
    const until = Math.min(chainNow + this.config.sessionTtlSeconds, notAfter ?? Infinity);
    if (until <= chainNow) {
      throw new ApiError('CREDENTIAL_EXPIRED', 'The credential expires before the chain time now');
    }
    const mined = await this.attester.activate(walletAddress, until);
    const activeUntil = mined.until ?? until;
    return {
      walletAddress,
      activeUntil: new Date(activeUntil * 1000).toISOString(),
      activeUntilUnix: activeUntil,
      txHash: mined.txHash,
      blockNumber: mined.blockNumber,
    };
  }
}
