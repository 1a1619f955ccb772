import { Injectable } from '@nestjs/common';
import { ZeroAddress } from 'ethers';
import type { Principal } from '../auth/principal';
import { NetworkService } from '../chain/network/network.service';
import { checksumAddress } from '../common/address/checksum-address';
import { ApiError } from '../common/errors/api-error';
import { CompliancePolicyService } from '../compliance/policy/compliance-policy.service';
import type {
  DraftTradeDto,
  EvaluatePolicyDto,
} from '../compliance/policy/dto/compliance-policy.dto';
import { normalizeTradingForMarket } from '../compliance/policy/trading-rules';
import { TradeRequest, tradeFacts, TradeToken } from './trade-facts';
import { TradeRulesService } from './trade-rules.service';

/**
 * POST /compliance/policy/evaluate (issue 54): the wallet against the policy (or a draft), and
 * with a draft trade, the trade rules on it (the draft's, else the account's) and each daily
 * limit's use now. Changes nothing.
 */
@Injectable()
export class TradePolicyService {
  constructor(
    private readonly policy: CompliancePolicyService,
    private readonly rules: TradeRulesService,
    private readonly network: NetworkService,
  ) {}

  async evaluate(principal: Principal, body: EvaluatePolicyDto) {
    const wallet = await this.policy.evaluate(principal, body.walletAddress, body.policy);
    if (!body.trade) return wallet;
    const trading = body.policy
      ? body.policy.trading
        ? normalizeTradingForMarket(body.policy.trading, this.policy.market())
        : null
      : await this.rules.tradingOf(principal.accountId);
    const facts = tradeFacts(this.draft(body.trade));
    return { ...wallet, trade: await this.rules.evaluate(principal.accountId, facts, trading) };
  }

  /** The draft as a swap's trade: tokens of the market (ETH as WETH), what it gives. */
  private draft(trade: DraftTradeDto): TradeRequest {
    const tokenIn = this.token(trade.tokenIn, 'trade.tokenIn');
    const tokenOut = this.token(trade.tokenOut, 'trade.tokenOut');
    if (trade.tradeType !== 'EXACT_OUTPUT')
      return {
        kind: 'swap',
        tokenIn,
        tokenOut,
        tradeType: 'EXACT_INPUT',
        amountIn: BigInt(trade.amount),
      };
    if (trade.amountInMaximum === undefined)
      throw new ApiError('INVALID_PARAMS', 'trade.amountInMaximum is required with EXACT_OUTPUT', {
        hint: 'A dry run reads no quote: say the most tokenIn the trade may give.',
        details: [
          {
            field: 'trade.amountInMaximum',
            reason: 'INVALID_PARAMS',
            message: 'required with EXACT_OUTPUT',
          },
        ],
      });
    return {
      kind: 'swap',
      tokenIn,
      tokenOut,
      tradeType: 'EXACT_OUTPUT',
      amountInMaximum: BigInt(trade.amountInMaximum),
    };
  }

  private token(address: string, field: string): TradeToken {
    const { tokens } = this.network.definition;
    const checksummed = checksumAddress(address);
    const token =
      checksummed === ZeroAddress
        ? tokens.WETH
        : Object.values(tokens).find((t) => t.address === checksummed);
    if (!token)
      throw new ApiError('UNSUPPORTED_TOKEN', `${field} ${checksummed} is not a supported token`, {
        extra: { field },
      });
    return { symbol: token.symbol, decimals: token.decimals };
  }
}
