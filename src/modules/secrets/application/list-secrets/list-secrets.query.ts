import { Query } from '@nestjs/cqrs';

export interface SecretPage {
  items: { name: string; createdAt: string; updatedAt: string }[];
  nextCursor: string | null;
}

/** Names and timestamps only: values never leave the store through the API. */
export class ListSecretsQuery extends Query<SecretPage> {
  constructor(
    readonly cursor: string | undefined,
    readonly limit: number,
  ) {
    super();
  }
}
