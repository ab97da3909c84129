import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { EventsHandler, IEventHandler, QueryBus } from '@nestjs/cqrs';
import { ListToolsQuery } from '../inventory/application/list-tools/list-tools.query.js';
import type { ToolFilter, ToolView } from '../inventory/application/tool-view.js';
import { GetSourceQuery } from '../sources/application/get-source/get-source.query.js';
import { ListSourcesQuery } from '../sources/application/list-sources/list-sources.query.js';
import { CatalogChanged } from '../../shared/catalog-events.js';
import { NotFound } from '../../shared/domain-error.js';
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
/** More changed sources than this since the last reading are read as a whole catalog instead. */
const MAX_PATCHED_SOURCES = 20;

/** A source as the snapshot needs it; the id lets a changed source's rows be replaced. */
interface SourceRow {
  id: string;
  name: string;
  enabled: boolean;
}

/** What a snapshot was built from, kept so that a change of one source re-reads only that source. */
interface Reading {
  tools: readonly ToolView[];
  sources: readonly SourceRow[];
}

/**
 * The read side of the MCP endpoints: one shared snapshot of the usable tools, read through the
 * QueryBus, replaced at once when the catalog changes (here, or in another process: see
 * CatalogNotificationsModule) and refreshed in the background (stale while revalidating)
 * otherwise. A change that names its source re-reads that source only and patches the last
 * reading; a resync, a change without a source, or many changes at once read everything.
 * Listeners hear when what clients would list has changed.
 */
@Injectable()
@EventsHandler(CatalogChanged)
export class McpCatalog implements IEventHandler<CatalogChanged>, OnModuleDestroy {
  private readonly logger = new Logger('mcp-catalog');
  private current?: CatalogSnapshot;
  private loading?: { promise: Promise<CatalogSnapshot>; generation: number };
  /** Bumped by every catalog event: a reading that started before the latest event is not trusted as fresh. */
  private generation = 0;
  /** The rows of the last reading taken as current, and what changed since. */
  private base?: Reading;
  private readonly changedSources = new Set<string>();
  private wholeCatalogChanged = false;
  /** When the reading last taken as current from the whole catalog started: patches do not postpone the fallback. */
  private wholeReadAt = 0;
  private lastFingerprint?: string;
  private debounce?: NodeJS.Timeout;
  private readonly listeners = new Set<() => void>();

  constructor(@Inject(QueryBus) private readonly queries: QueryBus) {}

  /** The current reading; waits for a read only when there is none (first use, or right after a change). */
  async snapshot(): Promise<CatalogSnapshot> {
    const current = this.current;
    if (current) {
      if (Date.now() - this.wholeReadAt > CATALOG_REFRESH_MS) void this.load(true).catch((error: unknown) => this.logger.warn(`catalog refresh failed: ${describe(error)}`));
      return current;
    }
    return this.load();
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

  private async readAll(): Promise<Reading> {
    const started = Date.now();
    const [tools, sources] = await Promise.all([this.readTools({ status: 'active' }), this.readSources()]);
    this.logger.debug(`catalog read: ${tools.length} tools of ${sources.length} sources in ${Date.now() - started} ms`);
    return { tools, sources };
  }

  /** The last reading with the rows of the `changed` sources read again (a removed source leaves none). */
  private async readChanged(base: Reading, changed: readonly string[]): Promise<Reading> {
    const started = Date.now();
    const fresh = await Promise.all(
      changed.map(async (id) => {
        const source = await this.readSource(id);
        // Read by id or name: only rows of this very source count.
        const tools = source ? (await this.readTools({ status: 'active', source: id })).filter((tool) => tool.source.id === id) : [];
        return { id, source, tools };
      }),
    );
    const ids = new Set(changed);
    const tools = base.tools.filter((tool) => !ids.has(tool.source.id));
    const sources = base.sources.filter((source) => !ids.has(source.id));
    for (const entry of fresh) {
      tools.push(...entry.tools);
      if (entry.source) sources.push(entry.source);
    }
    this.logger.debug(`catalog read: ${changed.length} changed sources in ${Date.now() - started} ms`);
    return { tools, sources };
  }

  private async readTools(filter: ToolFilter): Promise<ToolView[]> {
    const tools: ToolView[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.queries.execute(new ListToolsQuery(filter, cursor, PAGE));
      tools.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return tools;
  }

  private async readSources(): Promise<SourceRow[]> {
    const sources: SourceRow[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.queries.execute(new ListSourcesQuery({}, cursor, PAGE));
      for (const source of page.items) sources.push({ id: source.id, name: source.name, enabled: source.enabled });
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return sources;
  }

  /** The source with this id, or undefined when there is none (removed). */
  private async readSource(id: string): Promise<SourceRow | undefined> {
    try {
      const source = await this.queries.execute(new GetSourceQuery(id));
      return source.id === id ? { id: source.id, name: source.name, enabled: source.enabled } : undefined;
    } catch (error) {
      if (error instanceof NotFound) return undefined;
      throw error;
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
