import { applyDecorators, Controller, Inject } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

/** A resource of the REST API under `path`, grouped under `tag`, that takes a credential. */
export function ApiController(path: string, tag: string): ClassDecorator {
  return applyDecorators(ApiTags(tag), ApiBearerAuth(), Controller(path));
}

/** A controller that turns requests into the module's commands and queries. */
export abstract class BusController {
  constructor(
    @Inject(CommandBus) protected readonly commands: CommandBus,
    @Inject(QueryBus) protected readonly queries: QueryBus,
  ) {}
}
