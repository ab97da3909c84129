import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { EventsHandler, IEventHandler, QueryBus } from '@nestjs/cqrs';
import { ListToolsQuery } from '../../modules/inventory/application/list-tools/list-tools.query.js';
import type { ToolView } from '../../modules/inventory/application/tool-view.js';
import { ListSourcesQuery } from '../../modules/sources/application/list-sources/list-sources.query.js';
import { CatalogChanged } from '../../shared/catalog-events.js';
import { CatalogSnapshot } from './catalog-snapshot.js';

/**
 * How long a reading is served before it is read again in the background. Only a fallback, for
 * changes made outside Toolplane: its own changes replace the reading at once, other processes'
 * arrive by NOTIFY, and a lost listener connection re-reads everything when it is back. Reading
 * a large catalog is not free (10,000 tools: about 0.1 s of this process's CPU), so not often.
 */
export const CATALOG_REFRESH_MS = 60_000;
/** Catalog events arriving within this window are coalesced into one re-read and at most one notification. */
const CHANGE_DEBOUNCE_MS = 100;
const PAGE = 1000;
const NO_BASELINE = '';

/**
 * The read side of the MCP endpoints: one shared snapshot of the usable tools, read through the
 * QueryBus, replaced at once when the catalog changes (here, or in another process: see
 * CatalogNotificationsModule) and refreshed in the background (stale while revalidating)
 * otherwise. Listeners hear when what clients would list has changed.
 */
@Injectable()
@EventsHandler(CatalogChanged)
export class McpCatalog implements IEventHandler<CatalogChanged>, OnModuleDestroy {
  private readonly logger = new Logger('mcp-catalog');
  private current?: CatalogSnapshot;
  private loading?: { promise: Promise<CatalogSnapshot>; generation: number };
  /** Bumped by every catalog event: a reading that started before the latest event is not trusted as fresh. */
  private generation = 0;
  private lastFingerprint?: string;
  private debounce?: NodeJS.Timeout;
  private readonly listeners = new Set<() => void>();

  constructor(@Inject(QueryBus) private readonly queries: QueryBus) {}

  /** The current reading; waits for a read only when there is none (first use, or right after a change). */
  async snapshot(): Promise<CatalogSnapshot> {
    const current = this.current;
    if (current) {
      if (Date.now() - current.loadedAt > CATALOG_REFRESH_MS) void this.load().catch((error: unknown) => this.logger.warn(`catalog refresh failed: ${describe(error)}`));
      return current;
    }
    return this.load();
  }

  /** Called (synchronously, without arguments) when the tools a client would list have changed. */
  onToolsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  handle(_event: CatalogChanged): void {
    this.generation++;
    this.current = undefined;
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

  private load(): Promise<CatalogSnapshot> {
    // A reading that started before the latest catalog event may miss it: start a fresh one.
    if (this.loading && this.loading.generation === this.generation) return this.loading.promise;
    const generation = this.generation;
    const promise = this.read().then(
      (snapshot) => {
        if (this.loading?.promise === promise) this.loading = undefined;
        if (generation === this.generation) {
          this.current = snapshot;
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

  private async read(): Promise<CatalogSnapshot> {
    const loadedAt = Date.now();
    const [tools, sources] = await Promise.all([this.readTools(), this.readSources()]);
    this.logger.debug(`catalog read: ${tools.length} tools of ${sources.length} sources in ${Date.now() - loadedAt} ms`);
    return new CatalogSnapshot(tools, sources, loadedAt);
  }

  private async readTools(): Promise<ToolView[]> {
    const tools: ToolView[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.queries.execute(new ListToolsQuery({ status: 'active' }, cursor, PAGE));
      tools.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return tools;
  }

  private async readSources(): Promise<{ name: string; enabled: boolean }[]> {
    const sources: { name: string; enabled: boolean }[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.queries.execute(new ListSourcesQuery({}, cursor, PAGE));
      for (const source of page.items) sources.push({ name: source.name, enabled: source.enabled });
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return sources;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
