import { Query } from '@nestjs/cqrs';

export interface UserSecretList {
  items: { name: string; createdAt: string; updatedAt: string }[];
}

/** A principal's own secrets: names and times, never values. */
export class ListUserSecretsQuery extends Query<UserSecretList> {
  constructor(readonly principalId: string) {
    super();
  }
}
