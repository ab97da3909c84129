import type { FastifyRequest } from 'fastify';

/** The peer of the HTTP connection, as the socket saw it (the `client.*` span attributes). */
export function clientOf(request: FastifyRequest): { address?: string; port?: number } {
  const socket = request.raw.socket;
  return { address: socket.remoteAddress, port: socket.remotePort };
}
