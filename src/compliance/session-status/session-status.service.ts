import { Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import { SanctionsScreen } from '../screening/sanctions-screen.service';
import { VerifyChallengesService } from '../verification/verify-challenges.service';
import type { SessionSource } from './dto/session-status.dto';

export type SessionStatus = {
  address: string;
  active: boolean;
  sanctioned: boolean;
  activeUntil: string | null;
  source: SessionSource | null;
  chainTime: number;
};

/**
 * A wallet's compliance session as the chain has it (ComplianceRegistry.activeUntil) and the
 * sanctions oracle's answer, read in ONE eth_call: a listed wallet reads `active: false,
 * sanctioned: true` at once (the hook refuses its trades), not after the screening watcher's next
 * pass has ended its session (issue 53, design §10).
 */
@Injectable()
export class SessionStatusService {
  constructor(
    private readonly screen: SanctionsScreen,
    private readonly challenges: VerifyChallengesService,
  ) {}

  async status(wallet: string): Promise<SessionStatus> {
    const address = getAddress(wallet.toLowerCase());
    const { activeUntil, chainTime, sanctioned, ...read } = await this.screen.screenOne(address);
    const active = read.active && !sanctioned;
    let source: SessionSource | null = null;
    if (active) {
      source = (await this.challenges.openedByCredential(address, activeUntil))
        ? 'credential'
        : 'attester';
    }
    return {
      address,
      active,
      sanctioned,
      activeUntil: activeUntil === 0 ? null : new Date(activeUntil * 1000).toISOString(),
      source,
      chainTime,
    };
  }
}
