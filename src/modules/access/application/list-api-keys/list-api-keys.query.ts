import type { ApiKeyView } from '../api-key-view.js';

export class ListApiKeysQuery {
  constructor(
    readonly cursor: string | undefined,
    readonly limit: number,
  ) {}
}

export interface ApiKeyPage {
  items: ApiKeyView[];
  nextCursor: string | null;
}
