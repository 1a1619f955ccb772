import { API_KEY_PAGE_DEFAULT, API_KEY_PAGE_MAX } from '../api-key-page';
import { PageCursor, PageLimit } from '../../../common/validation/composed-validators';

export class ListApiKeysQueryDto {
  @PageLimit('Keys', API_KEY_PAGE_DEFAULT, API_KEY_PAGE_MAX)
  limit?: number;

  @PageCursor()
  cursor?: string;
}
