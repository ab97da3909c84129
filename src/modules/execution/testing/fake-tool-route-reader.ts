import { ToolRouteReader, type ToolRoute } from '../application/tool-route.js';

/** ToolRouteReader over routes held in memory; counts its reads, and fails while `failure` is set. */
export class FakeToolRouteReader extends ToolRouteReader {
  readonly routes = new Map<string, ToolRoute>();
  reads = 0;
  failure: Error | undefined;

  add(...routes: ToolRoute[]): this {
    for (const route of routes) this.routes.set(route.tool.qualifiedName, route);
    return this;
  }

  async read(qualifiedName: string): Promise<ToolRoute | undefined> {
    this.reads += 1;
    if (this.failure) throw this.failure;
    return this.routes.get(qualifiedName);
  }
}
