import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { packageVersion } from '../shared/package-version.js';

/** The operations' groups, in the order the README introduces them (its openapi.yaml entry lists them). */
const TAGS: ReadonlyArray<[name: string, description: string]> = [
  ['sources', 'MCP servers registered as sources: register, check, change, remove, rediscover'],
  ['tools', 'The catalog of discovered tools, and calling them'],
  ['groups', 'Tool groups: curated, renamed tool sets with locked and default arguments, each its own MCP server and catalog'],
  ['interceptors', 'Configured pre- and post-call stages of tool calls: defaults, lock, deny, redact, cap, output-schema, webhook, approval'],
  ['reviews', 'Tool definitions held by pinning or the definition scan, with their diffs: approve or reject'],
  ['approvals', 'Tool calls held for a person’s approval: approve or deny (never your own)'],
  ['executions', 'Every call, recorded: history, statistics, the signed chain'],
  ['secrets', 'Encrypted values that env and headers refer to as ${secret:NAME}'],
  ['connections', 'Each person’s own connections to sources that sign in per user (OAuth): connect, list, disconnect, revoke'],
  ['access', 'API keys, roles and what a credential may do'],
  ['config', 'Sources, groups and keys as one configuration file: apply and export'],
  ['audit', 'The hash-chained trail of every change'],
  ['ops', 'Health and metrics'],
];

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Toolplane')
    .setDescription(
      'A control plane for AI tools: register MCP sources, discover their tools, and call them through one audited, ' +
        'validated and protected endpoint. Every error answers `{"error": {code, message, details[]}}`.',
    )
    .setVersion(packageVersion() ?? '0.0.0')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'API key',
      description: 'An API key (TOOLPLANE_ADMIN_KEY, the generated admin.key, or one made with POST /api/v1/api-keys); with OIDC configured, also an access token of the issuer.',
    });
  for (const [name, description] of TAGS) config.addTag(name, description);
  return SwaggerModule.createDocument(app, config.build(), { operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}` });
}
