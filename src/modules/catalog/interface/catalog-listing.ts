import type { FastifyReply } from 'fastify';
import { DomainError } from '../../../shared/domain-error.js';
import { BusController } from '../../../shared/http/api-controller.js';
import { may, type Principal } from '../../../shared/principal/principal.js';
import type { ToolScope } from '../../../shared/principal/tool-scope.js';
import type { ApiKeyView } from '../../access/application/api-key-view.js';
import { GetApiKeyQuery } from '../../access/application/get-api-key/get-api-key.query.js';
import { isRestricted } from '../../access/domain/tool-scope.js';
import { type CatalogAnswer, type CatalogPage, SearchCatalogQuery } from '../application/search-catalog/search-catalog.query.js';
import { parseCatalogRequest } from './catalog-request.js';

/** What the routes that list the catalog share: the query read, `as` another key, the ETag and its 304. */
export abstract class CatalogListing extends BusController {
  protected async page(query: Record<string, unknown>, ifNoneMatch: string | undefined, reply: FastifyReply, principal: Principal): Promise<CatalogPage | undefined> {
    const { as, ...parsed } = parseCatalogRequest(query);
    // A restricted principal's catalog holds only its tools (decideTool); `as` shows another's, its connections noted.
    const reader = as === undefined ? principal : await this.keyPrincipal(as, principal);
    const scope = reader.scope;
    const request = scope ? { ...parsed, filter: { ...parsed.filter, scope } } : parsed;
    const answer: CatalogAnswer = await this.queries.execute(new SearchCatalogQuery(request, ifNoneMatch, reader));
    void reply.header('ETag', answer.etag).header('Cache-Control', 'private, no-cache');
    if (answer.notModified) {
      void reply.status(304);
      return undefined;
    }
    return answer.page;
  }

  /** The principal of the key `keyId` (its tool scope, its connections), for a principal allowed to manage keys. */
  private async keyPrincipal(keyId: string, principal: Principal): Promise<Principal> {
    if (!may(principal, 'keys:manage')) throw new DomainError('forbidden', 'FORBIDDEN', 'Only a principal that manages API keys may list the catalog as another (`as`).');
    const key: ApiKeyView = await this.queries.execute(new GetApiKeyQuery(keyId));
    const scope: ToolScope = {
      ...(key.allowedSources ? { sources: key.allowedSources } : {}),
      ...(key.allowedTools ? { tools: key.allowedTools } : {}),
      ...(key.allowedGroups ? { groups: key.allowedGroups } : {}),
    };
    return { id: key.id, name: key.name, kind: 'api-key', roles: [key.role], ...(isRestricted(scope) ? { scope } : {}) };
  }
}
