import type { HeadersObject } from '@nestjs/swagger';

/** The response header naming a build's compliance receipt (its body's `receiptId`). */
export const RECEIPT_ID_HEADER = 'X-Receipt-Id';

/** The headers every build's 200 carries, whatever `callsFormat` shapes its body. */
export const BUILD_HEADERS: HeadersObject = {
  [RECEIPT_ID_HEADER]: {
    description:
      "The compliance receipt of this build (GET /api/v1/compliance/receipts/{id}): the same id as the body's receiptId, and the only place a callsFormat=eip5792 answer names it, since wallet_sendCalls parameters carry nothing else.",
    schema: { type: 'string', format: 'uuid' },
  },
};
