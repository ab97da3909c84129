import { Query } from '@nestjs/cqrs';
import type { Page } from '../../../../shared/page.js';

export type SecretPage = Page<{ name: string; createdAt: string; updatedAt: string }>;

/** Names and timestamps only: values never leave the store through the API. */
export class ListSecretsQuery extends Query<SecretPage> {
  constructor(
    readonly cursor: string | undefined,
    readonly limit: number,
  ) {
    super();
  }
}
