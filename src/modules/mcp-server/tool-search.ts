import type { ToolView } from '../inventory/application/tool-view.js';

export interface SearchHit {
  tool: ToolView;
  score: number;
}

const MAX_TERMS = 16;
const WORD = /[^\p{L}\p{N}]+/u;
/** Words too common to tell tools apart. */
const STOP_WORDS = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'into', 'is', 'it', 'of', 'on', 'or', 'some', 'that', 'the', 'this', 'to', 'with']);

/**
 * A small relevance ranking over name, title, description and parameter names, for the gateway's
 * `search_tools`. Each query term scores where it occurs: a whole word of the tool's name weighs
 * most, then part of the name, the title, a whole word of the description, part of it, a parameter
 * name. Tools matching every term get a bonus, and so does the whole query found as a phrase.
 * Tools matching no term are left out; ties go by qualified name. An empty query (or one of stop
 * words only) lists the first tools by name.
 */
export function searchTools(tools: readonly ToolView[], query: string, limit: number): SearchHit[] {
  const phrase = query.trim().toLowerCase();
  const words = [...new Set(phrase.split(WORD).filter((t) => t.length > 0))];
  const meaningful = words.filter((t) => !STOP_WORDS.has(t));
  const terms = (meaningful.length > 0 ? meaningful : words).slice(0, MAX_TERMS);
  if (terms.length === 0) return tools.slice(0, limit).map((tool) => ({ tool, score: 0 }));
  const hits: SearchHit[] = [];
  for (const tool of tools) {
    const score = scoreOf(tool, terms, phrase);
    if (score > 0) hits.push({ tool, score });
  }
  hits.sort((a, b) => b.score - a.score || (a.tool.qualifiedName < b.tool.qualifiedName ? -1 : 1));
  return hits.slice(0, limit);
}

function scoreOf(tool: ToolView, terms: string[], phrase: string): number {
  const name = tool.qualifiedName.toLowerCase();
  const nameWords = new Set(name.split(WORD));
  const title = (tool.title ?? (typeof tool.annotations?.title === 'string' ? tool.annotations.title : '')).toLowerCase();
  const description = (tool.description ?? '').toLowerCase();
  const descriptionWords = new Set(description.split(WORD));
  const properties = tool.inputSchema?.properties;
  const parameters = new Set(typeof properties === 'object' && properties !== null ? Object.keys(properties).map((p) => p.toLowerCase()) : []);
  let score = 0;
  let matched = 0;
  for (const term of terms) {
    let termScore = 0;
    if (nameWords.has(term)) termScore += 6;
    else if (name.includes(term)) termScore += 3;
    if (title.includes(term)) termScore += 2;
    if (descriptionWords.has(term)) termScore += 2;
    else if (description.includes(term)) termScore += 1;
    if (parameters.has(term)) termScore += 1;
    if (termScore > 0) matched++;
    score += termScore;
  }
  if (matched === 0) return 0;
  if (matched === terms.length) score += 4;
  if (terms.length > 1 && (description.includes(phrase) || title.includes(phrase))) score += 3;
  return score;
}
