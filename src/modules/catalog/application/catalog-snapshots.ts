import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { CatalogChanged } from '../../../shared/catalog-events.js';
import { CatalogSnapshot } from '../domain/catalog-snapshot.js';
import { CatalogReader, type CatalogReading } from './catalog-reader.js';

/**
 * How long a reading is served before it is read again in the background. Only a fallback, for
 * changes made outside Toolplane: its own changes replace the reading at once, other processes'
 * arrive by NOTIFY, and a lost listener connection re-reads everything when it is back. Reading
 * a large catalog is not free (10,000 tools: about 0.1 s of this process's CPU), so not often.
 */
export const CATALOG_REFRESH_MS = 60_000;
/** Catalog events arriving within this window are coalesced into one re-read and at most one notification. */
const CHANGE_DEBOUNCE_MS = 100;
const NO_BASELINE = '';
/** More changed sources than this since the last reading are read as a whole catalog instead. */
const MAX_PATCHED_SOURCES = 20;

/**
 * The catalog's one read model: a shared snapshot of every live tool with its source's settings
 * (see CatalogSnapshot), which the MCP endpoints, the REST catalog and its ETags, and the routes
 * of calls all read. Replaced at once when the catalog changes (here, or in another process: see
 * CatalogNotificationsModule) and refreshed in the background (stale while revalidating)
 * otherwise. A change that names its source re-reads that source only and patches the last
 * reading; a resync, a change without a source, or many changes at once read everything.
 * Listeners hear when what clients would list has changed.
 */
@Injectable()
@EventsHandler(CatalogChanged)
export class CatalogSnapshots implements IEventHandler<CatalogChanged>, OnModuleDestroy {
  private readonly logger = new Logger('catalog');
  private current?: CatalogSnapshot;
  private loading?: { promise: Promise<CatalogSnapshot>; generation: number };
  /** Bumped by every catalog event: a reading that started before the latest event is not trusted as fresh. */
  private generation = 0;
  /** The rows of the last reading taken as current, and what changed since. */
  private base?: CatalogReading;
  private readonly changedSources = new Set<string>();
  private wholeCatalogChanged = false;
  /** When the reading last taken as current from the whole catalog started: patches do not postpone the fallback. */
  private wholeReadAt = 0;
  private lastFingerprint?: string;
  private debounce?: NodeJS.Timeout;
  private readonly listeners = new Set<() => void>();

  constructor(@Inject(CatalogReader) private readonly reader: CatalogReader) {}

  /** The current reading; waits for a read only when there is none (first use, or right after a change). */
  snapshot(): Promise<CatalogSnapshot> {
    const current = this.latest();
    return current ? Promise.resolve(current) : this.load();
  }

  /** The current reading if there is one, without waiting (the hot path of calls); undefined right after a change. */
  latest(): CatalogSnapshot | undefined {
    const current = this.current;
    if (current && Date.now() - this.wholeReadAt > CATALOG_REFRESH_MS) void this.load(true).catch((error: unknown) => this.logger.warn(`catalog refresh failed: ${describe(error)}`));
    return current;
  }

  /** Called (synchronously, without arguments) when the tools a client would list have changed. */
  onToolsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  handle(event: CatalogChanged): void {
    this.generation++;
    this.current = undefined;
    if (event.sourceId === undefined) this.wholeCatalogChanged = true;
    else this.changedSources.add(event.sourceId);
    // Without an earlier reading there is nothing to compare with: the next one counts as a change.
    this.lastFingerprint ??= NO_BASELINE;
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      this.load().catch((error: unknown) => this.logger.warn(`catalog reload failed: ${describe(error)}`));
    }, CHANGE_DEBOUNCE_MS);
    this.debounce.unref();
  }

  onModuleDestroy(): void {
    clearTimeout(this.debounce);
    this.listeners.clear();
  }

  /** `whole`: read every source even when only some changed (the periodic fallback). */
  private load(whole = false): Promise<CatalogSnapshot> {
    // A reading that started before the latest catalog event may miss it: start a fresh one.
    if (this.loading && this.loading.generation === this.generation) return this.loading.promise;
    const generation = this.generation;
    const base = this.base;
    const changed = [...this.changedSources];
    const patch = !whole && base !== undefined && !this.wholeCatalogChanged && changed.length <= MAX_PATCHED_SOURCES;
    const startedAt = Date.now();
    const promise = (patch ? this.readChanged(base, changed) : this.readAll()).then(
      (reading) => {
        const snapshot = new CatalogSnapshot(reading.tools, reading.sources);
        if (this.loading?.promise === promise) this.loading = undefined;
        // No event since the read started: it covers every change so far.
        if (generation === this.generation) {
          this.current = snapshot;
          this.base = reading;
          this.changedSources.clear();
          this.wholeCatalogChanged = false;
          if (!patch) this.wholeReadAt = startedAt;
          this.announce(snapshot);
        }
        return snapshot;
      },
      (error: unknown) => {
        if (this.loading?.promise === promise) this.loading = undefined;
        throw error;
      },
    );
    this.loading = { promise, generation };
    return promise;
  }

  private announce(snapshot: CatalogSnapshot): void {
    const previous = this.lastFingerprint;
    this.lastFingerprint = snapshot.fingerprint;
    if (previous === undefined || previous === snapshot.fingerprint) return;
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.logger.warn(`tools-changed listener failed: ${describe(error)}`);
      }
    }
  }

  private async readAll(): Promise<CatalogReading> {
    const started = Date.now();
    const reading = await this.reader.readAll();
    this.logger.debug(`catalog read: ${reading.tools.length} tools of ${reading.sources.length} sources in ${Date.now() - started} ms`);
    return reading;
  }

  /** The last reading with the rows of the `changed` sources read again (a removed source leaves none). */
  private async readChanged(base: CatalogReading, changed: readonly string[]): Promise<CatalogReading> {
    const started = Date.now();
    const fresh = await Promise.all(changed.map((id) => this.reader.readSource(id)));
    const ids = new Set(changed);
    const tools = base.tools.filter((tool) => !ids.has(tool.source.id));
    const sources = base.sources.filter((source) => !ids.has(source.id));
    for (const reading of fresh) {
      if (!reading) continue;
      tools.push(...reading.tools);
      sources.push(...reading.sources);
    }
    this.logger.debug(`catalog read: ${changed.length} changed sources in ${Date.now() - started} ms`);
    return { tools, sources };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
