import { Command } from '@nestjs/cqrs';
import type { InventoryChanges } from '../../../inventory/domain/inventory-diff.js';

export class RefreshInventoryCommand extends Command<InventoryChanges> {
  constructor(
    readonly idOrName: string,
    readonly actor: string,
  ) {
    super();
  }
}
