import { PageCursor, PageLimit } from '../../common/validation/composed-validators';

export const DELIVERY_PAGE_DEFAULT = 20;
export const DELIVERY_PAGE_MAX = 100;

export class ListDeliveriesQueryDto {
  @PageLimit('Deliveries', DELIVERY_PAGE_DEFAULT, DELIVERY_PAGE_MAX)
  limit?: number;

  @PageCursor()
  cursor?: string;
}
