import { Injectable } from '@nestjs/common';
import { Metrics } from '../metrics/metrics.service';
import { ChainConnection } from './chain-connection';
import { ChainRpcService } from './chain-rpc.service';

/**
 * The chain's metrics: each RPC URL's provider failures as they happen (every URL starts at 0, so
 * a rate is defined before the first failure), and the head's age, read at each scrape. A head
 * that stops moving (a stalled node, a paused sequencer) grows the age while eth_chainId still
 * answers and readiness stays up. While no URL answers the age is left unset (absent), which
 * the alert on RPC errors covers.
 */
@Injectable()
export class ChainMetrics {
  constructor(metrics: Metrics, connection: ChainConnection, rpc: ChainRpcService) {
    for (const url of connection.reads.origins) metrics.rpcErrors.inc({ url }, 0);
    connection.reads.onProviderFailure = (url) => metrics.rpcErrors.inc({ url });
    metrics.onScrape('chain-head', async () => {
      metrics.chainHeadAge.reset();
      const timestamp = await rpc.latestBlockTime();
      metrics.chainHeadAge.set(Math.max(0, Date.now() / 1000 - timestamp));
    });
  }
}
