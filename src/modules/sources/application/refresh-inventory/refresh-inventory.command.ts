import { Command } from '@nestjs/cqrs';
import type { InventoryChanges } from '../../../inventory/domain/inventory-diff.js';

export class RefreshInventoryCommand extends Command<InventoryChanges> {
  constructor(
    readonly idOrName: string,
    readonly actor: string,
    /** The asking principal's own bearer token: used to discover only when it is the source's discovery principal. */
    readonly callerToken?: string,
  ) {
    super();
  }
}
