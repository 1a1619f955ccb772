import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiTags } from '@nestjs/swagger';
import { Idempotent } from '../../auth/idempotency/idempotent.decorator';
import { CurrentPrincipal, Principal } from '../../auth/principal';
import { RequireScope } from '../../auth/require-scope.decorator';
import { inPhase, JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { RelayTransactionDto, TxHashParamDto } from './dto/relay-transaction.dto';
import { RelayResponseDto, TransactionStatusResponseDto } from './dto/transaction-status.response';
import { RelayService } from './relay.service';
import { TransactionStatusService } from './transaction-status.service';

@ApiTags('transactions')
@Controller('api/v1/defi/transactions')
export class TransactionsController {
  constructor(
    private readonly relays: RelayService,
    private readonly statuses: TransactionStatusService,
  ) {}

  @Post()
  @HttpCode(202)
  @RequireScope('defi:broadcast')
  @Idempotent()
  @Operation({
    id: 'relayTransaction',
    summary: 'Relay a signed transaction built by this service: simulate it, then send it',
    description:
      "Phases: validation (the bytes decode, are signed for chain 84532, and call a contract the service builds for: 400 INVALID_PARAMS, 400 BROADCAST_TARGET_NOT_ALLOWED), preflight (403 INSTITUTION_OWNERSHIP_MISMATCH: the sender is bound to another account), broadcast (409 NONCE_CONFLICT: not the wallet's next nonce; 400 BALANCE_INSUFFICIENT: cannot pay gas; simulated at the latest block: 412 SESSION_NOT_ACTIVE when the compliance hook refuses, 403 WALLET_SANCTIONED when it refuses a wallet the sanctions oracle lists (details[].walletAddress), 400 SIMULATION_REVERTED with details.revertCode/revertReason otherwise; then eth_sendRawTransaction: 400 FEE_TOO_LOW, 409 NONCE_CONFLICT, 502 BROADCAST_FAILED). " +
      'The same signed bytes sent again answer the same txHash with the current status (202), also under Idempotency-Key. Poll GET /api/v1/defi/transactions/{txHash} until CONFIRMED or REVERTED. ' +
      "A Safe's execTransaction (a build's safeTransaction with its owners' signatures, sent by any account) is relayed when the Safe is bound to your account (403 INSTITUTION_OWNERSHIP_MISMATCH), is a Safe 1.4.1 without a transaction guard, sets no refund, and every call of its batch is one the service builds (400 BROADCAST_TARGET_NOT_ALLOWED with details[0].safeCall); owners' signatures the Safe refuses are 400 SIMULATION_REVERTED with details[0].revertCode SAFE_SIGNATURES_INVALID; kind is the batch's trade.",
    errors: [
      ...JSON_BODY_ERRORS,
      'BROADCAST_TARGET_NOT_ALLOWED',
      'INSTITUTION_OWNERSHIP_MISMATCH',
      'NONCE_CONFLICT',
      // Design §8: the phase says where it happened; these codes' usual phase is another.
      ...inPhase(
        'broadcast',
        'BALANCE_INSUFFICIENT',
        'SESSION_NOT_ACTIVE',
        'WALLET_SANCTIONED',
        'SIMULATION_REVERTED',
      ),
      'FEE_TOO_LOW',
      'BROADCAST_FAILED',
      'CHAIN_UNAVAILABLE',
    ],
  })
  @ApiAcceptedResponse({ type: RelayResponseDto, description: 'Sent (or already on chain)' })
  relay(@Body() body: RelayTransactionDto, @CurrentPrincipal() principal?: Principal) {
    return this.relays.relay(body.signedTransaction, principal);
  }

  @Get(':txHash')
  @RequireScope('defi:preflight', 'defi:broadcast')
  @Operation({
    id: 'getTransactionStatus',
    summary: 'Status of any transaction: PENDING, CONFIRMED, REVERTED or NOT_FOUND',
    description:
      'Any hash, relayed here or not. CONFIRMED swaps carry the amounts actually paid and received (swap), mints the new tokenId; REVERTED carries revert {code, message, hint}, decoded as the relay decodes its simulation (SESSION_NOT_ACTIVE, WALLET_SANCTIONED, SLIPPAGE_EXCEEDED, DEADLINE_PASSED, ALLOWANCE_INSUFFICIENT, ...). A hash the node does not know is 200 NOT_FOUND. Errors: 400 INVALID_PARAMS (not a 32-byte hash), 503 CHAIN_UNAVAILABLE.',
    ok: TransactionStatusResponseDto,
    errors: ['INVALID_PARAMS', 'CHAIN_UNAVAILABLE'],
  })
  getTransactionStatus(@Param() params: TxHashParamDto) {
    return this.statuses.status(params.txHash);
  }
}
