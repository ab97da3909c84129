import { ToolViews, type ToolFilter, type ToolPage, type ToolView } from '../application/tool-view.js';

/** Tool views as given, by qualified name; the cursor is the last qualified name of the page before. */
export class InMemoryToolViews extends ToolViews {
  constructor(private readonly views: ToolView[] = []) {
    super();
  }

  async get(qualifiedName: string): Promise<ToolView | undefined> {
    return this.views.find((view) => view.qualifiedName === qualifiedName);
  }

  async list(filter: ToolFilter, cursor: string | undefined, limit: number): Promise<ToolPage> {
    const status = filter.status ?? 'active';
    const matching = this.views
      .filter((view) => filter.source === undefined || view.source.name === filter.source || view.source.id === filter.source)
      .filter((view) => status === 'all' || view.status === status)
      .filter((view) => filter.enabled === undefined || view.enabled === filter.enabled)
      .filter((view) => cursor === undefined || view.qualifiedName > cursor)
      .sort((a, b) => (a.qualifiedName < b.qualifiedName ? -1 : 1));
    const items = matching.slice(0, limit);
    return { items, nextCursor: matching.length > limit ? items.at(-1)!.qualifiedName : null };
  }
}
