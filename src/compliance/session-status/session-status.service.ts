import { Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import { AttesterService } from '../sessions/attester.service';
import { VerifyChallengesService } from '../verification/verify-challenges.service';
import type { SessionSource } from './dto/session-status.dto';

export type SessionStatus = {
  address: string;
  active: boolean;
  activeUntil: string | null;
  source: SessionSource | null;
  chainTime: number;
};

/** A wallet's compliance session as the chain has it (ComplianceRegistry.activeUntil). */
@Injectable()
export class SessionStatusService {
  constructor(
    private readonly attester: AttesterService,
    private readonly challenges: VerifyChallengesService,
  ) {}

  async status(wallet: string): Promise<SessionStatus> {
    const address = getAddress(wallet.toLowerCase());
    const { activeUntil, chainTime } = await this.attester.sessionOf(address);
    const active = chainTime < activeUntil;
    let source: SessionSource | null = null;
    if (active) {
      source = (await this.challenges.openedByCredential(address, activeUntil))
        ? 'credential'
        : 'attester';
    }
    return {
      address,
      active,
      activeUntil: activeUntil === 0 ? null : new Date(activeUntil * 1000).toISOString(),
      source,
      chainTime,
    };
  }
}
