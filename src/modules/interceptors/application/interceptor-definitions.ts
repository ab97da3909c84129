import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { InterceptorsChanged } from '../../../shared/catalog-events.js';
import { InterceptorRepository, InterceptorsInForce, type Interceptor } from '../domain/interceptor.js';

/** How long a reading is served before it is read again in the background (only a fallback: changes arrive as InterceptorsChanged, also from other processes). */
export const INTERCEPTORS_REFRESH_MS = 60_000;

/**
 * The interceptors in force: every enabled interceptor, in the order they run (ascending `order`,
 * then name), held in memory so that a call reads them without waiting. Read at start, and again
 * on every InterceptorsChanged — a change made here (its command waits for the new reading
 * before it answers) or in another process on the same database (relayed by NOTIFY) — and in the
 * background every INTERCEPTORS_REFRESH_MS. `version` moves whenever the reading differs from the
 * last; each interceptor object is frozen and stands for one version of it.
 */
@Injectable()
@EventsHandler(InterceptorsChanged)
export class InterceptorDefinitions extends InterceptorsInForce implements IEventHandler<InterceptorsChanged>, OnModuleInit {
  private readonly logger = new Logger('interceptors');
  private current: readonly Interceptor[] = Object.freeze([]);
  private signature = '';
  private changes = 0;
  private readAt = 0;
  /** Readings started, and the one whose result is kept: a reading started later sees every change an earlier one does. */
  private started = 0;
  private latest: Promise<void> = Promise.resolve();

  constructor(@Inject(InterceptorRepository) private readonly interceptors: InterceptorRepository) {
    super();
  }

  get version(): number {
    return this.changes;
  }

  /** Read at start: a Toolplane that cannot read its interceptors does not start. */
  async onModuleInit(): Promise<void> {
    await this.read(++this.started);
  }

  all(): readonly Interceptor[] {
    if (Date.now() - this.readAt > INTERCEPTORS_REFRESH_MS && this.readAt > 0) {
      this.readAt = Date.now();
      void this.reload();
    }
    return this.current;
  }

  handle(_event: InterceptorsChanged): Promise<void> {
    return this.reload();
  }

  /** Resolves once the reading started by the latest change has landed (or failed, which is logged). */
  settled(): Promise<void> {
    return this.latest;
  }

  private reload(): Promise<void> {
    const reading = ++this.started;
    this.latest = this.read(reading).catch((error: unknown) => this.logger.warn(`interceptors reload failed: ${error instanceof Error ? error.message : String(error)}`));
    return this.latest;
  }

  private async read(reading: number): Promise<void> {
    const startedAt = Date.now();
    const stored = await this.interceptors.all();
    if (reading !== this.started) return;
    const inForce = stored.filter((interceptor) => interceptor.enabled).sort((a, b) => a.order - b.order || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const signature = inForce.map((interceptor) => `${interceptor.id}@${interceptor.version}`).join(' ');
    this.readAt = startedAt;
    if (signature === this.signature) return;
    this.signature = signature;
    this.current = Object.freeze(inForce.map((interceptor) => deepFreeze(interceptor)));
    this.changes++;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
