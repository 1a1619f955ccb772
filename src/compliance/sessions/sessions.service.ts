import { Inject, Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import { complianceConfig, ComplianceConfig } from '../../config/compliance.config';
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
    @Inject(complianceConfig.KEY) private readonly config: ComplianceConfig,
  ) {}

  /** Opens (or renews) the session of `wallet` for SESSION_TTL_SECONDS from the chain's current time. */
  async activate(wallet: string): Promise<ActivatedSession> {
    const walletAddress = getAddress(wallet);
    const until = (await this.attester.chainTime()) + this.config.sessionTtlSeconds;
    const mined = await this.attester.activate(walletAddress, until);
    return {
      walletAddress,
      activeUntil: new Date(until * 1000).toISOString(),
      activeUntilUnix: until,
      txHash: mined.txHash,
      blockNumber: mined.blockNumber,
    };
  }
}
