import { Body, Controller, Get, HttpException, Post, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, Min, ValidateNested } from 'class-validator';
import { DataSource } from 'typeorm';
import { ApiError } from '../../src/common/errors/api-error';
import { Public } from '../../src/common/auth/public.decorator';
import { IsEvmAddress } from '../../src/common/validation/is-evm-address';

class InnerDto {
  @IsEvmAddress()
  wallet: string;
}

export class ProbeDto {
  @IsEvmAddress()
  tokenIn: string;

  @IsString()
  label: string;

  @IsInt()
  @Min(1)
  @Max(10)
  count: number;

  @ValidateNested()
  @Type(() => InnerDto)
  inner: InnerDto;
}

export class ProbeQueryDto {
  @IsEvmAddress()
  address: string;
}

/** Test-only routes that raise each kind of error the app can meet, to check the envelope. */
@Public()
@Controller('test-probe')
export class ErrorProbeController {
  constructor(private readonly dataSource: DataSource) {}

  @Post('validate')
  validate(@Body() body: ProbeDto) {
    return { ok: true, body };
  }

  @Get('query')
  query(@Query() query: ProbeQueryDto) {
    return { ok: true, query };
  }

  @Get('api-error')
  apiError(): never {
    throw new ApiError('UNSUPPORTED_TOKEN', 'Token 0xabc is not supported', {
      hint: 'Use tUSDC instead',
    });
  }

  @Get('http-exception')
  httpException(): never {
    throw new HttpException('teapot', 418);
  }

  @Get('crash')
  crash(): never {
    throw new Error('secret internal detail at /srv/app.ts:42');
  }

  @Get('sql-error')
  async sqlError(): Promise<never> {
    await this.dataSource.query('SELECT * FROM no_such_table_xyz');
    throw new Error('unreachable');
  }
}

/**
 * Requests that stay in flight until the test releases them, to observe graceful shutdown with
 * requests in flight without guessing how long anything takes.
 */
export class HeldRequests {
  private held: Array<() => void> = [];
  private arrivals: Array<{ count: number; resolve: () => void }> = [];

  /** Resolves once `count` requests are being held. */
  whenHolding(count: number): Promise<void> {
    if (this.held.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.arrivals.push({ count, resolve }));
  }

  hold(): Promise<void> {
    return new Promise((resolve) => {
      this.held.push(resolve);
      const reached = this.arrivals.filter((w) => w.count <= this.held.length);
      this.arrivals = this.arrivals.filter((w) => w.count > this.held.length);
      reached.forEach((w) => w.resolve());
    });
  }

  releaseAll(): void {
    this.held.splice(0).forEach((release) => release());
  }
}

/** A public route whose requests wait for HeldRequests.releaseAll(). */
@Public()
@Controller('test-held')
export class HeldProbeController {
  constructor(private readonly requests: HeldRequests) {}

  @Get()
  async held() {
    await this.requests.hold();
    return { done: true };
  }
}
