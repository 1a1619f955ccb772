/**
 * POST /api/v1/defi/liquidity/collect: the position's uncollected fees to the owner or a
 * recipient (DECREASE_LIQUIDITY of 0 + TAKE_PAIR). An exit: never needs a session.
 */
import { getAddress } from 'ethers';
import { poolKeyOf } from '../encoding/pool-key';
import type { DefiOperation } from '../pipeline/defi-pipeline.service';
import { encodeCollectCalldata } from '../encoding/position-calldata';
import type { CollectFeesDto } from '../positions/dto/position-requests.dto';
import { sdkPool, sdkPosition, withSdk } from '../positions/position-math';
import {
  PositionOperationReads,
  positionChangeBase,
  positionFromPreflight,
  positionPreflight,
} from '../positions/position-preflight';
import type { CollectFeesDetails } from '../positions/position-responses';

type CollectOperation = DefiOperation<
  CollectFeesDto,
  never,
  PositionOperationReads,
  CollectFeesDetails
>;

export const collectFeesOperation: CollectOperation = {
  name: 'collect',
  preflight: (dto) => ({ session: 'none', exit: true, ...positionPreflight(dto.tokenId) }),

  payouts: (dto) =>
    dto.recipient === undefined ? [] : [{ field: 'recipient', address: dto.recipient }],

  build: (dto, pre, deadline) => {
    const position = positionFromPreflight(dto.tokenId, pre);
    const recipient = getAddress(dto.recipient ?? position.owner);
    const { price, pool: positionPool } = position;
    return {
      to: pre.network.contracts.positionManager,
      data: withSdk('collect', () =>
        encodeCollectCalldata(sdkPosition(sdkPool(positionPool.network, price), position), {
          tokenId: position.tokenId,
          deadline,
          recipient,
        }),
      ),
      gas: 'collect',
      details: Object.assign(positionChangeBase(position, price), {
        poolKey: poolKeyOf(positionPool.network.pool),
        recipient,
      }),
    };
  },
};
