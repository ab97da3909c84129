import { canonicalJson, sha256Hex } from '../../../shared/canonical-json.js';
import { isUuid } from '../../../shared/uuid.js';
import type { AuditSigner, ChainLink } from '../../audit/domain/audit-chain.js';
import {
  ExecutionReads,
  type ExecutionChainSnapshot,
  type ExecutionKey,
  type ExecutionStatsCounts,
  type ExecutionStatsWindow,
  type UnchainedRecords,
} from '../application/execution-reads.js';
import type { ExecutionView } from '../application/execution-view.js';
import type { ExecutionFilter } from '../application/list-executions/list-executions.query.js';
import { EXECUTION_STATUSES, type ExecutionStatus } from '../domain/execution.js';
import { executionLinkHash, type ChainedExecution } from '../domain/execution-chain.js';
import { anchorDigest, NOTHING_PURGED, type ChainAnchor } from '../domain/execution-retention.js';

/** What a link covers of its record here: the record as stored now, in canonical form, hashed. */
export function storedDigest(execution: ExecutionView): string {
  return sha256Hex(canonicalJson(execution));
}

interface ChainState {
  executions: ExecutionView[];
  links: ChainLink[];
  anchor: ChainAnchor;
  pending: Set<string>;
}

/**
 * The history of calls in memory, with its chain: `record` stores calls as the recorder does
 * (waiting for the sealer), `seal` links them, `purge` drops the oldest as retention does. A spec
 * may change or delete `executions` and `links` behind their backs, as someone writing the
 * database would. Keeps what was asked of it.
 */
export class InMemoryExecutionReads extends ExecutionReads {
  executions: ExecutionView[];
  links: ChainLink[] = [];
  anchor: ChainAnchor = NOTHING_PURGED;
  /** Ids of the records waiting for the sealer. */
  readonly pending = new Set<string>();
  /** The port's methods called, in order. */
  readonly calls: string[] = [];
  readonly statsWindows: ExecutionStatsWindow[] = [];
  readonly linkReads: { afterSeq: number; limit: number }[] = [];
  /** Runs after each batch of links a snapshot reads: what it changes commits beside the snapshot, unseen by it. */
  afterLinksRead: (() => void) | undefined;

  /** `executions`: records written past the recorder (neither linked nor waiting), unless sealed. */
  constructor(executions: readonly ExecutionView[] = []) {
    super();
    this.executions = executions.map((execution) => structuredClone(execution));
  }

  /** Stores calls as the recorder does: each waits for the sealer. */
  record(...executions: ExecutionView[]): void {
    for (const execution of executions) {
      this.executions.push(structuredClone(execution));
      this.pending.add(execution.id);
    }
  }

  /** Links the waiting records in the order recorded, as a sealing pass does, and signs its last link (a checkpoint). */
  seal(signer: AuditSigner): void {
    const head = this.links.at(-1) ?? this.anchor;
    let { seq, hash: prevHash } = head;
    const ids = [...this.pending];
    const records = new Map(this.executions.map((execution) => [execution.id, execution]));
    ids.forEach((id, i) => {
      const execution = records.get(id)!;
      seq += 1;
      const hash = executionLinkHash(prevHash, seq, storedDigest(execution));
      const checkpoint = i === ids.length - 1;
      this.links.push({ seq, id, prevHash, hash, signature: checkpoint ? signer.sign(hash) : null, keyId: checkpoint ? signer.keyId : null });
      prevHash = hash;
    });
    this.pending.clear();
  }

  /** Drops the oldest `count` links and their records, as retention does, and moves the anchor past them, signed. */
  purge(count: number, purgedBefore: Date, signer: AuditSigner): void {
    const purged = this.links.splice(0, count);
    const ids = new Set(purged.map((link) => link.id));
    this.executions = this.executions.filter((execution) => !ids.has(execution.id));
    const last = purged.at(-1)!;
    const anchor = { seq: last.seq, hash: last.hash, purgedBefore, purgedCount: this.anchor.purgedCount + purged.length };
    this.anchor = { ...anchor, signature: signer.sign(anchorDigest(anchor)), keyId: signer.keyId };
  }

  async list(filter: ExecutionFilter, after: ExecutionKey | undefined, limit: number): Promise<ExecutionView[]> {
    this.calls.push('list');
    return this.executions
      .filter((execution) => matches(execution, filter) && (!after || comesAfter(execution, after)))
      .sort(newestFirst)
      .slice(0, limit)
      .map((execution) => structuredClone(execution));
  }

  async get(id: string): Promise<ExecutionView | undefined> {
    this.calls.push('get');
    const execution = this.executions.find((e) => e.id === id);
    return execution && structuredClone(execution);
  }

  async stats(window: ExecutionStatsWindow): Promise<ExecutionStatsCounts[]> {
    this.calls.push('stats');
    this.statsWindows.push(window);
    const { groupBy, since, until, caller } = window;
    const inWindow = this.executions.filter((execution) => {
      const at = Date.parse(execution.startedAt);
      return at >= since.getTime() && (!until || at < until.getTime()) && (caller === undefined || execution.caller.principalId === caller);
    });
    const groups = new Map<string, ExecutionView[]>();
    for (const execution of inWindow) {
      const key = JSON.stringify(groupKey(execution, groupBy));
      groups.set(key, [...(groups.get(key) ?? []), execution]);
    }
    return [...groups.values()]
      .map((calls) => counts(calls, groupBy))
      .sort((a, b) => b.count - a.count || compareKeys(groupKey(a, groupBy), groupKey(b, groupBy)));
  }

  async retainedFrom(): Promise<Date | null> {
    this.calls.push('retainedFrom');
    return this.anchor.seq > 0 ? this.anchor.purgedBefore : null;
  }

  /** The state as it was when the snapshot began; reading it once `read` has settled throws. */
  async readChain<T>(read: (chain: ExecutionChainSnapshot) => Promise<T>): Promise<T> {
    this.calls.push('readChain');
    const seen: ChainState = structuredClone({ executions: this.executions, links: this.links, anchor: this.anchor, pending: this.pending });
    let open = true;
    const use = () => {
      if (!open) throw new Error('the chain snapshot was read after its transaction ended');
    };
    const snapshot: ExecutionChainSnapshot = {
      anchor: async () => {
        use();
        return { ...seen.anchor };
      },
      links: async (afterSeq, limit) => {
        use();
        this.linkReads.push({ afterSeq, limit });
        const records = new Map(seen.executions.map((execution) => [execution.id, execution]));
        const batch = seen.links
          .filter((link) => link.seq > afterSeq)
          .sort((a, b) => a.seq - b.seq)
          .slice(0, limit)
          .map((link): ChainedExecution => {
            const execution = link.id === null ? undefined : records.get(link.id);
            return { ...link, digest: execution ? storedDigest(execution) : null };
          });
        this.afterLinksRead?.();
        return batch;
      },
      unchained: async (): Promise<UnchainedRecords> => {
        use();
        const linked = new Set(seen.links.map((link) => link.id));
        const unlinked = seen.executions
          .map((execution) => execution.id)
          .filter((id) => !linked.has(id) && !seen.pending.has(id))
          .sort();
        return { pending: seen.pending.size, unlinked: unlinked.length, firstUnlinkedId: unlinked[0] ?? null };
      },
    };
    try {
      return await read(snapshot);
    } finally {
      open = false;
    }
  }
}

function matches(execution: ExecutionView, filter: ExecutionFilter): boolean {
  const at = Date.parse(execution.startedAt);
  return (
    (!filter.tool || execution.qualifiedName === filter.tool) &&
    (!filter.group || execution.group === filter.group) &&
    (!filter.source || execution.sourceName === filter.source || (isUuid(filter.source) && execution.sourceId === filter.source)) &&
    (!filter.statuses?.length || filter.statuses.includes(execution.status)) &&
    (!filter.caller || execution.caller.principalId === filter.caller) &&
    (!filter.since || at >= filter.since.getTime()) &&
    (!filter.until || at < filter.until.getTime())
  );
}

/** (startedAt, id) < (at, id), as the listing's keyset compares. */
function comesAfter(execution: ExecutionView, key: ExecutionKey): boolean {
  const at = Date.parse(execution.startedAt);
  const keyAt = Date.parse(key.at);
  return at < keyAt || (at === keyAt && execution.id < key.id);
}

function newestFirst(a: ExecutionView, b: ExecutionView): number {
  return Date.parse(b.startedAt) - Date.parse(a.startedAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

type GroupKey = (string | null)[];

function groupKey(group: Partial<ExecutionView> & Partial<ExecutionStatsCounts>, groupBy: ExecutionStatsWindow['groupBy']): GroupKey {
  if (groupBy === 'tool') return [group.qualifiedName ?? null];
  if (groupBy === 'source') return [group.sourceId ?? null, group.sourceName ?? null];
  return [group.caller?.principalId ?? group.principalId ?? null];
}

/** Key by key, nulls last. */
function compareKeys(a: GroupKey, b: GroupKey): number {
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i] ?? null, b[i] ?? null];
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    return x < y ? -1 : 1;
  }
  return 0;
}

function counts(calls: ExecutionView[], groupBy: ExecutionStatsWindow['groupBy']): ExecutionStatsCounts {
  const first = calls[0]!;
  const latest = calls.reduce((a, b) => (Date.parse(b.startedAt) > Date.parse(a.startedAt) ? b : a));
  const durations = calls.map((call) => call.durationMs).sort((a, b) => a - b);
  return {
    ...(groupBy === 'tool'
      ? { qualifiedName: first.qualifiedName }
      : groupBy === 'source'
        ? { sourceId: first.sourceId, sourceName: first.sourceName }
        : { principalId: first.caller.principalId, principalName: latest.caller.principalName }),
    count: calls.length,
    countsByStatus: Object.fromEntries(EXECUTION_STATUSES.map((status) => [status, calls.filter((call) => call.status === status).length])) as Record<ExecutionStatus, number>,
    p50DurationMs: percentile(durations, 0.5),
    p95DurationMs: percentile(durations, 0.95),
  };
}

/** percentile_cont: interpolated between the two nearest of the sorted values. */
function percentile(sorted: number[], fraction: number): number {
  const at = fraction * (sorted.length - 1);
  const below = sorted[Math.floor(at)]!;
  const above = sorted[Math.ceil(at)]!;
  return below + (above - below) * (at - Math.floor(at));
}
