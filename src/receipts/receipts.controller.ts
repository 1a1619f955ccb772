import { Controller, Get, Logger, Param, Query, StreamableFile } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiExtraModels, ApiOkResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { CurrentPrincipal, Principal } from '../auth/principal';
import { RequireScope } from '../auth/require-scope.decorator';
import { checksumAddress } from '../common/address/checksum-address';
import { Operation } from '../common/openapi/operation.decorator';
import {
  ListReceiptsQueryDto,
  ReceiptIdParamDto,
  ReceiptPeriodQueryDto,
} from './dto/receipt-queries.dto';
import { ReceiptBody, ReceiptListResponse, ReceiptResponse } from './dto/receipt.response';
import { receiptExportStream } from './export/receipt-export';
import { ReceiptsService } from './receipts.service';

const READ_ERRORS = ['INVALID_PARAMS', 'QUOTA_EXCEEDED'] as const;

@ApiTags('receipts')
@Controller('api/v1/compliance/receipts')
export class ReceiptsController {
  private readonly logger = new Logger(ReceiptsController.name);

  constructor(
    private readonly receipts: ReceiptsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get('export')
  @RequireScope('receipts:read')
  @ApiExtraModels(ReceiptBody)
  @ApiOkResponse({
    description:
      'NDJSON: one ReceiptBody a line (`{"id","jws","receipt","executionJws"}`), oldest first; the schema is that of each line',
    content: { 'application/x-ndjson': { schema: { $ref: getSchemaPath(ReceiptBody) } } },
  })
  @Operation({
    id: 'exportReceipts',
    summary:
      "Your account's receipts of a period as NDJSON: one { id, jws, receipt, executionJws } a line",
    description:
      'For an auditor: every receipt issued in [from, to) (default: all), oldest first, optionally of one wallet, streamed from the database page by page (a month of a million receipts does not hold the service). Each line is what GET /api/v1/compliance/receipts/{id} answers, without authMethod. A stream cut short (the connection closes before the last chunk) is an incomplete export: ask again. Any dashboard user, or an API key with `receipts:read`.',
    errors: [...READ_ERRORS],
  })
  export(@CurrentPrincipal() principal: Principal, @Query() query: ReceiptPeriodQueryDto) {
    const stream = receiptExportStream(this.dataSource.manager, {
      accountId: principal.accountId,
      wallet: query.wallet === undefined ? undefined : checksumAddress(query.wallet),
      fromMs: query.from?.getTime(),
      toMs: query.to?.getTime(),
    });
    const file = new StreamableFile(stream, {
      type: 'application/x-ndjson; charset=utf-8',
      disposition: 'attachment; filename="receipts.ndjson"',
    });
    // Headers are sent with the first page: a failure after it must not end the response as if
    // complete. The connection is reset instead, so the client sees an incomplete transfer.
    return file.setErrorHandler((err, res) => {
      this.logger.error({ err: err.message }, 'receipt export failed mid-stream');
      if (res.destroyed) return;
      if (!res.headersSent) {
        res.statusCode = 503;
        res.end();
      } else res.destroy?.(err);
    });
  }

  @Get()
  @RequireScope('receipts:read')
  @Operation({
    id: 'listReceipts',
    summary: "Your account's compliance receipts: by period, wallet and cursor, oldest first",
    description:
      'Every swap and liquidity build answers a receiptId; here are those receipts, each with its JWS. Filter by from/to (ISO 8601) and wallet; pass limit (1-200, default 50) and, for the next page, after=<nextAfter>. Index range scans: flat as history grows. Any dashboard user, or an API key with `receipts:read`.',
    ok: ReceiptListResponse,
    errors: [...READ_ERRORS],
  })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListReceiptsQueryDto) {
    return this.receipts.list(principal.accountId, query);
  }

  @Get(':id')
  @RequireScope('receipts:read')
  @Operation({
    id: 'getReceipt',
    summary:
      'One compliance receipt: the JWS as issued, the document, and the execution once mined',
    description:
      "Verify `jws` with any JOSE library against /.well-known/jwks.json (ES256; the header's kid names the key). `receipt` is its payload, plus `execution` once the transaction is mined (relayed by the service, or seen on chain), which `executionJws` signs. NOT_FOUND for an id that is not your account's.",
    ok: ReceiptResponse,
    errors: [...READ_ERRORS, 'NOT_FOUND'],
  })
  one(@CurrentPrincipal() principal: Principal, @Param() params: ReceiptIdParamDto) {
    return this.receipts.view(principal.accountId, params.id);
  }
}
