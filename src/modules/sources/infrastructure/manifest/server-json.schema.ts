import {
  ENV_NAME_PATTERN,
  HEADER_NAME_PATTERN,
  HTTP_URL_PATTERN,
  NO_NUL_PATTERN,
  SERVER_NAME_PATTERN,
  SHA256_PATTERN,
  SPECIFIC_VERSION_PATTERN,
  WORD_PATTERN,
} from './schema-patterns.js';

/**
 * JSON Schema (draft-07) for server.json, after the MCP registry's server.schema.json.
 * Stricter than the registry where Toolplane relies on the data: unknown properties are
 * rejected (extensions belong in `_meta`, allowed on every object), lists and strings are
 * capped, URLs must be http(s), and names of variables and headers must be usable as such.
 */

const META = { type: 'object' };
const URI = { type: 'string', maxLength: 2048, format: 'uri' };
const HTTP_URL = { type: 'string', maxLength: 2048, pattern: HTTP_URL_PATTERN };
const TEXT = { type: 'string', maxLength: 4000 };
const VALUE = { type: 'string', maxLength: 8192, pattern: NO_NUL_PATTERN };

const INPUT_PROPERTIES = {
  description: TEXT,
  isRequired: { type: 'boolean' },
  isSecret: { type: 'boolean' },
  default: VALUE,
  format: { type: 'string', enum: ['string', 'number', 'boolean', 'filepath'] },
  choices: { type: 'array', maxItems: 200, items: { type: 'string', maxLength: 1000 } },
  value: VALUE,
  placeholder: { type: 'string', maxLength: 1000 },
  _meta: META,
};

const INPUT = { type: 'object', additionalProperties: false, properties: INPUT_PROPERTIES };

/** Values for `{name}` placeholders in an input's `value`. */
const VARIABLES = { type: 'object', maxProperties: 100, additionalProperties: INPUT };

function keyValueInputs(namePattern: string, maxItems: number) {
  return {
    type: 'array',
    maxItems,
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        ...INPUT_PROPERTIES,
        variables: VARIABLES,
        name: { type: 'string', minLength: 1, maxLength: 255, pattern: namePattern },
      },
    },
  };
}

const ENVIRONMENT_VARIABLES = keyValueInputs(ENV_NAME_PATTERN, 200);
const HEADERS = keyValueInputs(HEADER_NAME_PATTERN, 100);

const ARGUMENTS = {
  type: 'array',
  maxItems: 200,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['type'],
    properties: {
      ...INPUT_PROPERTIES,
      variables: VARIABLES,
      type: { type: 'string', enum: ['positional', 'named'] },
      name: { type: 'string', minLength: 1, maxLength: 255, pattern: WORD_PATTERN },
      valueHint: { type: 'string', minLength: 1, maxLength: 255 },
      isRepeated: { type: 'boolean' },
    },
    allOf: [
      { if: { properties: { type: { const: 'named' } }, required: ['type'] }, then: { required: ['name'] } },
      {
        if: { properties: { type: { const: 'positional' } }, required: ['type'] },
        then: { anyOf: [{ required: ['value'] }, { required: ['valueHint'] }] },
      },
    ],
  },
};

const PACKAGE_TRANSPORT = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: { type: 'string', enum: ['stdio', 'streamable-http', 'sse'] },
    url: HTTP_URL,
    headers: HEADERS,
    _meta: META,
  },
  if: { properties: { type: { enum: ['streamable-http', 'sse'] } }, required: ['type'] },
  then: { required: ['url'] },
};

const PACKAGE = {
  type: 'object',
  additionalProperties: false,
  required: ['registryType', 'identifier', 'transport'],
  properties: {
    registryType: { type: 'string', enum: ['npm', 'pypi', 'oci', 'nuget', 'mcpb'] },
    registryBaseUrl: URI,
    identifier: { type: 'string', minLength: 1, maxLength: 1000, pattern: NO_NUL_PATTERN },
    version: { type: 'string', minLength: 1, maxLength: 255, pattern: SPECIFIC_VERSION_PATTERN },
    fileSha256: { type: 'string', pattern: SHA256_PATTERN },
    runtimeHint: { type: 'string', minLength: 1, maxLength: 100, pattern: WORD_PATTERN },
    transport: PACKAGE_TRANSPORT,
    runtimeArguments: ARGUMENTS,
    packageArguments: ARGUMENTS,
    environmentVariables: ENVIRONMENT_VARIABLES,
    _meta: META,
  },
};

const REMOTE = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'url'],
  properties: {
    type: { type: 'string', enum: ['streamable-http', 'sse'] },
    url: HTTP_URL,
    headers: HEADERS,
    variables: VARIABLES,
    _meta: META,
  },
};

export const serverJsonSchema = {
  title: 'server.json (MCP registry server description)',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'description', 'version'],
  properties: {
    $schema: URI,
    name: { type: 'string', minLength: 1, maxLength: 200, pattern: SERVER_NAME_PATTERN },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: 'string', minLength: 1, maxLength: 1000 },
    version: { type: 'string', minLength: 1, maxLength: 255 },
    websiteUrl: URI,
    // Informational only: checked loosely, further properties allowed.
    repository: {
      type: 'object',
      required: ['url', 'source'],
      properties: {
        url: URI,
        source: { type: 'string', maxLength: 100 },
        id: { type: 'string', maxLength: 255 },
        subfolder: { type: 'string', maxLength: 1000 },
      },
    },
    icons: {
      type: 'array',
      maxItems: 50,
      items: { type: 'object', required: ['src'], properties: { src: { type: 'string', maxLength: 255 } } },
    },
    packages: { type: 'array', maxItems: 50, items: PACKAGE },
    remotes: { type: 'array', maxItems: 50, items: REMOTE },
    _meta: META,
  },
};
