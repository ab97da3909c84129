import type { ApiKeyView } from '../api-key-view.js';
import type { Page } from '../../../../shared/page.js';

export class ListApiKeysQuery {
  constructor(
    readonly cursor: string | undefined,
    readonly limit: number,
  ) {}
}

export type ApiKeyPage = Page<ApiKeyView>;
