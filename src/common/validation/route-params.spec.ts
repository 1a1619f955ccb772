import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { routeParams, routeSuccessStatus } from './route-params';

class BodyDto {
  label!: string;
}
class ParamsDto {
  id!: string;
}

@Controller('probe')
class ProbeController {
  @Post(':id')
  handle(
    @Req() _req: unknown,
    @Body() _body: BodyDto,
    @Query('address') _address: string,
    @Param() _params: ParamsDto,
    @Headers('x-api-key') _key: string,
  ) {
    return undefined;
  }

  @Post()
  none() {
    return undefined;
  }
}

// Pins the Nest-internal metadata shape route-params.ts reads: fails on an upgrade that changes it.
describe(routeParams.name, () => {
  it('finds the @Body, @Query and @Param parameters with their position, name and type', () => {
    const params = routeParams(ProbeController, 'handle');
    expect(params.sort((a, b) => a.index - b.index)).toEqual([
      { type: 'body', index: 1, data: undefined, metatype: BodyDto },
      { type: 'query', index: 2, data: 'address', metatype: String },
      { type: 'param', index: 3, data: undefined, metatype: ParamsDto },
    ]);
  });

  it('returns nothing for a handler without such parameters', () => {
    expect(routeParams(ProbeController, 'none')).toEqual([]);
  });
});

describe(routeSuccessStatus.name, () => {
  class Probe {
    @Post('a') created() {}
    @Post('b') @HttpCode(200) ok() {}
    @Get('c') read() {}
  }
  it("reads @HttpCode, else Nest's defaults (201 for POST, 200 otherwise)", () => {
    expect(routeSuccessStatus(Probe.prototype.created, 'POST')).toBe(201);
    expect(routeSuccessStatus(Probe.prototype.ok, 'POST')).toBe(200);
    expect(routeSuccessStatus(Probe.prototype.read, 'GET')).toBe(200);
  });
});
