/**
 * Published after a change that may alter how a tool is reached or whether it may be used:
 * a source registered, changed or removed, an inventory refreshed, a tool enabled or disabled.
 * Read-side caches in this process drop what they hold for the source (all, without one).
 * `remote`: the change was made by another Toolplane process on the same database.
 */
export class CatalogChanged {
  constructor(
    readonly sourceId?: string,
    readonly remote = false,
  ) {}
}

/**
 * Published after a refresh that found the source's tools, protocol and health as they were: only
 * the times it records moved (each tool's `lastSeenAt`, the source's last refresh). Views that
 * show those times drop their versions; nothing that lists or reaches tools needs to read again.
 */
export class InventorySeen {
  constructor(readonly sourceId: string) {}
}

/**
 * Tells the other Toolplane processes sharing the database that the catalog changed. Called
 * inside the unit of work that makes the change, so the news travels only if, and once, it commits.
 */
export abstract class CatalogChangeNotifier {
  abstract notifyOthers(sourceId: string): Promise<void>;
  /** The same for a tool group (created, changed or removed). */
  abstract notifyGroupChanged(groupName: string): Promise<void>;
  /** The same for an interceptor (created, changed or removed). */
  abstract notifyInterceptorChanged(interceptorName: string): Promise<void>;
}

/**
 * Published after a tool group was created, changed or removed (`remote`: by another process on the
 * same database); without a name, any group may have changed. Group views read their groups again.
 */
export class GroupsChanged {
  constructor(
    readonly name?: string,
    readonly remote = false,
  ) {}
}

/**
 * Published after an interceptor was created, changed or removed (`remote`: by another process on
 * the same database); without a name, any interceptor may have changed. The interceptors in force
 * are read again.
 */
export class InterceptorsChanged {
  constructor(
    readonly name?: string,
    readonly remote = false,
  ) {}
}
