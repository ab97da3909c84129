import type { CatalogFormat, CatalogTool, NotConvertible } from './catalog.js';
import { JsonSchema, SchemaConversion, toFunctionParameters, toStrictSchema } from './function-schema.js';
import { notedDescription, notedMeta, type ConnectionNote } from './connection-notes.js';

/**
 * OpenAI refuses a function description longer than 1024 characters (Chat Completions and
 * Responses alike); longer ones are cut there, ending with "…". Anthropic documents no limit
 * for tool descriptions and MCP none at all: those are left whole.
 */
export const OPENAI_DESCRIPTION_LIMIT = 1024;

/** An MCP `Tool` object: every field its upstream declared, in its order, under the name the endpoint exposes. */
export interface McpTool {
  name: string;
  inputSchema: Record<string, unknown>;
  [field: string]: unknown;
}

/** A Chat Completions tool. */
export interface OpenAiChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema; strict?: true };
}

/** A Responses API function tool; `strict` is always explicit, as Responses defaults to strict. */
export interface OpenAiResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}

/** A Messages API tool. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

export type FormattedTool = CatalogTool | McpTool | OpenAiChatTool | OpenAiResponsesTool | AnthropicTool;

export interface FormattedTools {
  items: FormattedTool[];
  /** Present for the LLM formats: the tools of the page that could not be expressed. */
  notConvertible?: NotConvertible[];
}

/**
 * A page of entries in the asked format; a tool that cannot be converted is named, never dropped
 * silently. `nameOf`: the name each entry is served under (a group's view serves its own names).
 */
export function formatTools(
  entries: CatalogTool[],
  format: CatalogFormat,
  strict: boolean,
  nameOf: (entry: CatalogTool) => string = qualifiedNameOf,
  /** The reader cannot call the entry's source before connecting to it (see connection-notes). */
  noteOf: (entry: CatalogTool) => ConnectionNote | undefined = () => undefined,
): FormattedTools {
  if (format === 'admin') return { items: entries.map((entry) => notedAdminTool(entry, noteOf(entry))) };
  if (format === 'mcp') return { items: entries.map((entry) => notedMcpTool(toMcpTool(entry, nameOf(entry)), noteOf(entry))) };
  const items: FormattedTool[] = [];
  const notConvertible: NotConvertible[] = [];
  for (const entry of entries) {
    const conversion: SchemaConversion = strict ? toStrictSchema(entry.inputSchema) : toFunctionParameters(entry.inputSchema);
    if (!conversion.ok) {
      notConvertible.push({ name: nameOf(entry), reason: conversion.reason });
      continue;
    }
    items.push(toLlmTool(entry, nameOf(entry), format, conversion.schema, strict, noteOf(entry)));
  }
  return { items, notConvertible };
}

const qualifiedNameOf = (entry: CatalogTool) => entry.qualifiedName;

/**
 * The projections of a CatalogTool, each named for what it serves: the admin view is the tool
 * itself; toMcpTool an MCP `Tool`; the LLM formats through formatTools; toSearchResult a hit of
 * the gateway's search_tools.
 */

/** The tool exactly as its upstream declared it, renamed: `name` keeps its place, nothing else changes. */
export function toMcpTool(entry: Pick<CatalogTool, 'definition'>, name: string): McpTool {
  return { ...entry.definition, name } as McpTool;
}

/** An MCP tool its reader cannot call before connecting: the note in `_meta`, its sentence after the description. */
export function notedMcpTool(tool: McpTool, note: ConnectionNote | undefined): McpTool {
  if (!note) return tool;
  return { ...tool, description: notedDescription(typeof tool.description === 'string' ? tool.description : undefined, note), _meta: notedMeta(tool._meta, note) };
}

/** The admin view of such a tool: its description noted, the note in `_meta` beside the definition (which stays as declared). */
function notedAdminTool(entry: CatalogTool, note: ConnectionNote | undefined): CatalogTool {
  if (!note) return entry;
  return { ...entry, description: notedDescription(entry.description, note), _meta: notedMeta(undefined, note) } as CatalogTool;
}

/** What the gateway's search_tools answers of a tool found: enough to call it with call_tool. */
export interface ToolSearchResult {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export function toSearchResult(tool: Pick<CatalogTool, 'qualifiedName' | 'title' | 'description' | 'inputSchema'>): ToolSearchResult {
  return {
    name: tool.qualifiedName,
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
  };
}

/** The LLM APIs take no `_meta`: a note is the sentence of the description alone, kept whole when the description is cut. */
function toLlmTool(entry: CatalogTool, name: string, format: Exclude<CatalogFormat, 'admin' | 'mcp'>, parameters: JsonSchema, strict: boolean, note?: ConnectionNote): FormattedTool {
  const limited = (limit: number) => {
    if (!note) return truncate(describe(entry), limit);
    const suffix = notedDescription('', note);
    return notedDescription(truncate(describe(entry), Math.max(1, limit - suffix.length - 2)), note);
  };
  switch (format) {
    case 'openai': {
      const fn: OpenAiChatTool['function'] = { name, description: limited(OPENAI_DESCRIPTION_LIMIT), parameters };
      if (strict) fn.strict = true;
      return { type: 'function', function: fn };
    }
    case 'openai-responses':
      return { type: 'function', name, description: limited(OPENAI_DESCRIPTION_LIMIT), parameters, strict };
    case 'anthropic':
      return { name, description: limited(Number.MAX_SAFE_INTEGER), input_schema: parameters };
  }
}

/** What the model reads about a tool: its description, else its title, else a generated sentence. */
export function describe(entry: Pick<CatalogTool, 'name' | 'title' | 'description' | 'source'>): string {
  const description = entry.description?.trim();
  if (description) return description;
  const title = entry.title?.trim();
  if (title) return title;
  return `The "${entry.name}" tool of the "${entry.source.name}" source.`;
}

/** At most `max` UTF-16 units, cut on a code point boundary, with "…" when cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  for (const ch of text) {
    if (out.length + ch.length > max - 1) break;
    out += ch;
  }
  return `${out.trimEnd()}…`;
}
