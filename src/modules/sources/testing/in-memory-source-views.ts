import type { SourceHealth } from '../domain/source-settings.js';
import { SourceViews, type StoredSourcePage, type StoredSourceView } from '../application/source-view.js';

/** Stored views as given, newest first; the cursor is the position of the next page. */
export class InMemorySourceViews extends SourceViews {
  constructor(private readonly views: StoredSourceView[] = []) {
    super();
  }

  async get(idOrName: string): Promise<StoredSourceView | undefined> {
    return this.views.find((view) => view.id === idOrName || view.name === idOrName);
  }

  async list(filter: { enabled?: boolean; health?: SourceHealth; transport?: string; q?: string }, cursor: string | undefined, limit: number): Promise<StoredSourcePage> {
    const q = filter.q?.toLowerCase();
    const matching = this.views
      .filter((view) => filter.enabled === undefined || view.enabled === filter.enabled)
      .filter((view) => filter.health === undefined || view.health === filter.health)
      .filter((view) => filter.transport === undefined || view.transport === filter.transport)
      .filter((view) => q === undefined || view.name.includes(q) || (view.description ?? '').toLowerCase().includes(q))
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
    const from = cursor === undefined ? 0 : Number(cursor);
    const next = from + limit;
    return { items: matching.slice(from, next), nextCursor: next < matching.length ? String(next) : null };
  }
}
