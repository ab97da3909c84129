import { Logger } from '@nestjs/common';
import type { UpstreamTarget } from '../modules/sources/domain/upstream.js';

const logger = new Logger('mcp');
/** Sources already warned about in this process. */
const warned = new Set<string>();

/**
 * Told of a 2026-07-28 result without `resultType`, which the revision requires: such a result
 * is read as complete, as robust clients read it (some servers leave it out), and the source is
 * warned about once per process.
 */
export function missingResultTypeNotice(target: Pick<UpstreamTarget, 'sourceId' | 'sourceName'>): () => void {
  return () => {
    if (warned.has(target.sourceId)) return;
    warned.add(target.sourceId);
    logger.warn(`source ${target.sourceName} sent a result without resultType, which protocol revision 2026-07-28 requires; it is read as complete`);
  };
}
