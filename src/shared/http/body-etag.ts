import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/**
 * Conditional GET for an answer computed on every request (a page of executions, of sources):
 * a weak ETag over the body's JSON, and 304 without a body when the caller already has it. It
 * saves the transfer and the caller's work (a console polling every few seconds), not the query.
 */
export function withBodyEtag<T>(reply: FastifyReply, ifNoneMatch: string | undefined, body: T): T | undefined {
  const etag = `W/"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
  void reply.header('ETag', etag).header('Cache-Control', 'private, no-cache');
  if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
    void reply.status(304);
    return undefined;
  }
  return body;
}
