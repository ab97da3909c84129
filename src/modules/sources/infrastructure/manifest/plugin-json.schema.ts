import { ENV_NAME_PATTERN, HTTP_URL_PATTERN, NO_NUL_PATTERN, WORD_PATTERN } from './schema-patterns.js';

/** JSON Schema (draft-07) for plugin.json, Toolplane's plugin format. Unknown properties are rejected. */

const ENVIRONMENT_VARIABLE = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255, pattern: ENV_NAME_PATTERN },
    description: { type: 'string', maxLength: 4000 },
    required: { type: 'boolean' },
    secret: { type: 'boolean' },
    default: { type: 'string', maxLength: 8192, pattern: NO_NUL_PATTERN },
  },
};

const PACKAGE = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    transport_type: { type: 'string', enum: ['stdio', 'streamable-http', 'sse'] },
    runtime: { type: 'string', minLength: 1, maxLength: 100, pattern: WORD_PATTERN },
    command: {
      type: 'array',
      minItems: 1,
      maxItems: 200,
      items: { type: 'string', minLength: 1, maxLength: 4096, pattern: NO_NUL_PATTERN },
    },
    url: { type: 'string', maxLength: 2048, pattern: HTTP_URL_PATTERN },
    environment_variables: { type: 'array', maxItems: 200, items: ENVIRONMENT_VARIABLE },
  },
  allOf: [
    // transport_type defaults to stdio, which needs a command; the remote transports need a url.
    { if: { properties: { transport_type: { const: 'stdio' } } }, then: { required: ['command'] } },
    {
      if: { properties: { transport_type: { enum: ['streamable-http', 'sse'] } }, required: ['transport_type'] },
      then: { required: ['url'] },
    },
  ],
};

export const pluginJsonSchema = {
  title: 'plugin.json (Toolplane plugin description)',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'version', 'packages'],
  properties: {
    $schema: { type: 'string', maxLength: 2048 },
    name: { type: 'string', minLength: 1, maxLength: 200 },
    version: { type: 'string', minLength: 1, maxLength: 255 },
    description: { type: 'string', maxLength: 1000 },
    packages: { type: 'array', minItems: 1, maxItems: 50, items: PACKAGE },
  },
};
