import { Module } from '@nestjs/common';
import { WalletsModule } from '../compliance/wallets/wallets.module';
import { ChainLayerDefiChain } from './chain/defi-chain.adapter';
import { DEFI_CHAIN } from './chain/defi-chain.port';
import { DefiConfigService } from './defi-config.service';
import { DefiController } from './defi.controller';
import { GasEstimatorService } from './gas-estimator.service';
import { LiquidityBuilderService } from './liquidity-builder.service';
import { PreflightController } from './preflight.controller';
import { PreflightService } from './preflight.service';
import { SwapBuilderService } from './swap-builder.service';

@Module({
  imports: [WalletsModule],
  controllers: [DefiController, PreflightController],
  providers: [
    { provide: DEFI_CHAIN, useClass: ChainLayerDefiChain },
    PreflightService,
    GasEstimatorService,
    SwapBuilderService,
    LiquidityBuilderService,
    DefiConfigService,
  ],
})
export class DefiBuilderModule {}
