import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../auth/principal';
import { RequireDashboardLogin } from '../../auth/require-scope.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { WalletListResponse } from './dto/wallet-list.response';
import { WalletsService } from './wallets.service';

/** The dashboard's view of the account's wallets: JWT only, always the caller's account. */
@ApiTags('wallets')
@RequireDashboardLogin()
@Controller('api/v1/wallets')
export class WalletsController {
  constructor(private readonly wallets: WalletsService) {}

  @Get()
  @Operation({
    id: 'listWallets',
    summary: "List your account's bound wallets",
    description:
      'Bind with POST /api/v1/onboarding/register; each wallet’s session, balances and allowances: GET /api/v1/defi/preflight/{address}.',
    ok: WalletListResponse,
    errors: ['SERVICE_UNAVAILABLE'],
  })
  async list(@CurrentPrincipal() principal: Principal) {
    const wallets = await this.wallets.listForAccount(principal.accountId);
    return {
      items: wallets.map((w) => ({ address: w.address, boundAt: w.boundAt.toISOString() })),
    };
  }
}
