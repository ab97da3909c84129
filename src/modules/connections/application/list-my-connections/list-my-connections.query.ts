import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../../../shared/principal/principal.js';
import type { ConnectionView } from '../connection-view.js';

/** The principal's connections, and every per-user source it may use that it has none to (`not_connected`). */
export class ListMyConnectionsQuery extends Query<{ items: ConnectionView[] }> {
  constructor(readonly principal: Principal) {
    super();
  }
}
