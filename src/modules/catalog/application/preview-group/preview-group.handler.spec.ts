import { catalogTool, sourcesOf } from '../../../../../test/helpers/catalog-tools.js';
import { ValidationFailed } from '../../../../shared/domain-error.js';
import { GroupDefinitions } from '../../../groups/application/group-definitions.js';
import { InMemoryGroupRepository } from '../../../groups/testing/in-memory-group-repository.js';
import type { CatalogTool } from '../../domain/catalog.js';
import { CatalogReader, type CatalogReading, type ToolTimes } from '../catalog-reader.js';
import { CatalogSnapshots } from '../catalog-snapshots.js';
import { GroupViews } from '../group-views.js';
import { PreviewGroupHandler } from './preview-group.handler.js';
import { PreviewGroupQuery } from './preview-group.query.js';

class FakeReader extends CatalogReader {
  tools: CatalogTool[] = [
    catalogTool('ev__echo', { inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } }),
    catalogTool('ev__add'),
    catalogTool('mem__read_graph'),
  ];
  async readAll(): Promise<CatalogReading> {
    return { tools: this.tools.map((tool) => ({ ...tool })), sources: sourcesOf(this.tools) };
  }
  async readSource(): Promise<CatalogReading | undefined> {
    return undefined;
  }
  async readTimes(): Promise<Map<string, ToolTimes>> {
    return new Map();
  }
}

describe('PreviewGroupHandler', () => {
  let snapshots: CatalogSnapshots;
  let groups: InMemoryGroupRepository;
  let handler: PreviewGroupHandler;

  beforeEach(() => {
    snapshots = new CatalogSnapshots(new FakeReader());
    groups = new InMemoryGroupRepository();
    handler = new PreviewGroupHandler(new GroupViews(snapshots, new GroupDefinitions(groups)));
  });
  afterEach(() => snapshots.onModuleDestroy());

  it('answers the tools a group not saved would serve, under their served names, with locked arguments out of the schema', async () => {
    const preview = await handler.execute(
      new PreviewGroupQuery({ name: 'support', select: [{ sources: ['ev'] }], exclude: ['ev__add'], include: ['mem__read_graph'], overrides: { ev__echo: { name: 'say', locked: { message: 'fixed' } } } }),
    );
    expect(preview.items.map((tool) => [tool.servedName, tool.qualifiedName])).toEqual([
      ['read_graph', 'mem__read_graph'],
      ['say', 'ev__echo'],
    ]);
    const say = preview.items.find((tool) => tool.servedName === 'say')!;
    expect(say.locked).toEqual({ message: 'fixed' });
    expect(say.inputSchema).toEqual({ type: 'object', properties: {}, required: [] });
  });

  it('stores nothing', async () => {
    await handler.execute(new PreviewGroupQuery({ name: 'support', include: ['ev__add'] }));
    expect(await groups.findByName('support')).toBeUndefined();
  });

  it('lists every problem of the group with its path', async () => {
    const failure = await handler.execute(new PreviewGroupQuery({ name: 'Bad Name', select: [{ tools: ['x'], colour: 1 }], overrides: { ev__echo: { locked: { a: 1 }, defaults: { a: 2 } } } })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ValidationFailed);
    const paths = (failure as ValidationFailed).details.map((problem) => problem.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'select[0].colour']));
    expect(paths.some((path) => path.startsWith('overrides.ev__echo'))).toBe(true);
  });
});
