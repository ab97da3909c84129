import type { CommandBus } from '@nestjs/cqrs';

type CommandType = abstract new (...args: never[]) => object;

/** A command bus that keeps what was executed, in order, and answers with the handlers given (undefined otherwise). */
export class RecordingCommandBus {
  readonly executed: object[] = [];
  private readonly handlers = new Map<CommandType, (command: never) => unknown>();

  on<T extends object>(type: abstract new (...args: never[]) => T, handler: (command: T) => unknown): this {
    this.handlers.set(type, handler as (command: never) => unknown);
    return this;
  }

  async execute(command: object): Promise<unknown> {
    this.executed.push(command);
    const handler = this.handlers.get(command.constructor as CommandType);
    return handler ? handler(command as never) : undefined;
  }

  /** As the CommandBus a handler takes. */
  get bus(): CommandBus {
    return this as unknown as CommandBus;
  }
}
