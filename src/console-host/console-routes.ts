import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** The console's static build, beside the server's own build (dist/console). */
export const CONSOLE_DIR = fileURLToPath(new URL('../../console/', import.meta.url));

/** OpenID Connect sign-in for the console (authorization code with PKCE, a public client). */
export interface ConsoleOidc {
  issuer: string;
  clientId: string;
  scopes: string;
  /** The resource (RFC 8707) tokens are asked for: Toolplane's audience. */
  resource: string;
}

/**
 * What the console's pages may load: only their own files and the API of the same origin (and,
 * with OIDC sign-in, the issuer: its discovery document and token endpoint). No inline script or
 * style, no other site; images and audio from tool results arrive as data: URLs.
 */
export function consoleCsp(oidc?: ConsoleOidc): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    `connect-src 'self'${oidc ? ` ${new URL(oidc.issuer).origin}` : ''}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
};

interface StaticFile {
  body: Buffer;
  type: string;
}

/** Reads the build once: a handful of small files, served from memory. */
function loadFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!existsSync(dir)) return files;
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(dir, path).split(sep).join('/'), { body: readFileSync(path), type: TYPES[extname(name)] ?? 'application/octet-stream' });
    }
  };
  walk(dir);
  return files;
}

/**
 * Serves the console at `/console` (and `/console/*`, where any path that is not a file is one of
 * its pages: index.html), and sends `/` there. Public: the pages hold no data, the API calls they make carry the
 * credential. The Host and Origin check of the request edge runs here as on every route.
 */
export function registerConsoleRoutes(fastify: FastifyInstance, options: { dir?: string; oidc?: ConsoleOidc } = {}): void {
  const files = loadFiles(options.dir ?? CONSOLE_DIR);
  const csp = consoleCsp(options.oidc);
  // What the sign-in page offers: OIDC when a console client is configured.
  const settings = Buffer.from(JSON.stringify({ oidc: options.oidc ?? null }));
  files.set('settings.json', { body: settings, type: 'application/json; charset=utf-8' });
  const send = (reply: FastifyReply, path: string) => {
    const file = files.get(path) ?? (extname(path) === '' ? files.get('index.html') : undefined);
    void reply
      .header('content-security-policy', csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('x-frame-options', 'DENY')
      .header('cache-control', 'no-cache');
    if (!file) {
      const missing = files.has('index.html') ? 'No such file.' : 'The console is not built (npm run build).';
      return reply.code(404).type('text/plain; charset=utf-8').send(missing);
    }
    return reply.type(file.type).send(file.body);
  };
  fastify.get('/console', (_request, reply) => send(reply, 'index.html'));
  // Someone opening the address Toolplane logged is shown the console.
  fastify.get('/', (_request, reply) => reply.redirect('/console', 302));
  fastify.get<{ Params: { '*': string } }>('/console/*', (request, reply) => send(reply, request.params['*'] || 'index.html'));
}
