import type { EventBus } from '@nestjs/cqrs';

/** An event bus that keeps what was published, in order, and delivers it nowhere. */
export class RecordingEventBus {
  readonly published: object[] = [];

  publish(event: object): void {
    this.published.push(event);
  }

  publishAll(events: object[]): void {
    this.published.push(...events);
  }

  /** The events published of one class. */
  of<T extends object>(type: new (...args: never[]) => T): T[] {
    return this.published.filter((event): event is T => event instanceof type);
  }

  /** As the EventBus a handler takes. */
  get bus(): EventBus {
    return this as unknown as EventBus;
  }
}
