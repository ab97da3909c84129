import { CommandBus } from '@nestjs/cqrs';
import { RefreshInventoryCommand } from '../../sources/application/refresh-inventory/refresh-inventory.command.js';
import { DiscoveryRefresh } from '../domain/oauth-source.js';

/** Refreshes through the sources module's RefreshInventory, which discovers with the source's discovery principal's credential. */
export class CommandBusDiscoveryRefresh extends DiscoveryRefresh {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  async refresh(sourceId: string, actor: string): Promise<void> {
    await this.commands.execute(new RefreshInventoryCommand(sourceId, actor));
  }
}
