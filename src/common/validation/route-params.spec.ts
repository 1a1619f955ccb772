import { Body, Controller, Headers, Param, Post, Query, Req } from '@nestjs/common';
import { routeParams } from './route-params';

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
