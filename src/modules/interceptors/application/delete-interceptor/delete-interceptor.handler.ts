import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { viewOf, type InterceptorView } from '../interceptor-view.js';
import { InterceptorWrites } from '../interceptor-writes.js';
import { DeleteInterceptorCommand } from './delete-interceptor.command.js';

@CommandHandler(DeleteInterceptorCommand)
export class DeleteInterceptorHandler implements ICommandHandler<DeleteInterceptorCommand, InterceptorView> {
  constructor(@Inject(InterceptorWrites) private readonly writes: InterceptorWrites) {}

  async execute({ name, actor }: DeleteInterceptorCommand): Promise<InterceptorView> {
    return viewOf(await this.writes.remove(name, actor));
  }
}
