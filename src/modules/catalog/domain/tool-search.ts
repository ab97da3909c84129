import type { CatalogTool } from '../../inventory/domain/tool-definition.js';

/**
 * The one search of the catalog: REST `GET /api/v1/tools?q=` and the MCP gateway's `search_tools`
 * both parse with parseSearch and rank with ToolSearchIndex.
 */

/** A search, parsed. */
export interface SearchQuery {
  /** The search as given, blanks collapsed: what cursors and ETags are tied to. */
  text: string;
  /**
   * Each blank-separated word of the search as the parts it is made of (`get-su`: get, su;
   * `inv__nest`: inv, nest), lower-cased, function words left out. A tool matches a group when it
   * matches every part of it; it is found when it matches any group (or its name holds the text).
   */
  groups: string[][];
}

export interface SearchHit {
  tool: CatalogTool;
  /** Higher first; a whole number (ties go by qualified name). */
  score: number;
}

/** English function words that agents put in requests ("send an email to the team"). */
const STOP_WORDS: ReadonlySet<string> = new Set(
  'a an the and or of on in into onto to for with without by from at as is are was were be been being it its this that these those my our your their me us we you i he she they them all any some every each please can could should would will shall may might do does did has have had there here what which who whom whose how when where why right now just also so than then someone something somebody anyone anything'.split(
    ' ',
  ),
);

/** At most this many parts of a search take part in its ranking. */
export const MAX_SEARCH_TERMS = 16;

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Splits a search into groups of words (letters and digits of any script; `-`, `_`, `.` and other
 * punctuation separate the parts of a group, blanks separate groups), lower-cased and
 * de-duplicated. Function words are left out unless the search holds nothing else. A blank
 * search is no search.
 */
export function parseSearch(q: string | undefined): SearchQuery | undefined {
  if (q === undefined) return undefined;
  const text = q.trim().replace(/\s+/g, ' ');
  if (text === '') return undefined;
  const all = text
    .toLowerCase()
    .split(' ')
    .map((chunk) => [...new Set(chunk.match(WORD) ?? [])])
    .filter((parts) => parts.length > 0);
  const meaningful = all.map((parts) => parts.filter((part) => !STOP_WORDS.has(part))).filter((parts) => parts.length > 0);
  const groups: string[][] = [];
  const seen = new Set<string>();
  let terms = 0;
  for (const parts of meaningful.length > 0 ? meaningful : all) {
    const key = parts.join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    const kept = parts.slice(0, MAX_SEARCH_TERMS - terms);
    if (kept.length === 0) break;
    groups.push(kept);
    terms += kept.length;
  }
  return { text, groups };
}

/** The fields a tool's words are found in: its names, title, description, parameter names. */
const FIELDS = 4;
/** Weight of a whole-word (or same-stem) match, then of a prefix match, by field (a match there says that much about the tool). */
const EXACT = [12, 6, 4, 2];
const PREFIX = [8, 4, 2, 1];
/** Each matched group counts for more than all weights and bonuses can add up to (16 parts × 24 + 40). */
const PER_GROUP = 1000;
const ALL_GROUPS_BONUS = 8;
const PHRASE_BONUS = 6;
const NAME_EXACT_BONUS = 20;
const NAME_PREFIX_BONUS = 10;
const NAME_SUBSTRING_BONUS = 6;

/**
 * A light English stemmer: plural and verb endings off, so `customers` finds `customer` and
 * `echo` finds `Echoes`. Words of three letters or fewer are left as they are.
 */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(?:x|ch|sh|ss|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  else if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** The words of one tool by field, computed once per tool object (a patched snapshot keeps the objects of unchanged sources). */
interface ToolText {
  fields: string[][];
  /** Its names, lower-cased, for a search matching part of a name. */
  names: string[];
  /** Title and description, lower-cased, for a search found there as a phrase. */
  prose: string;
}

const texts = new WeakMap<CatalogTool, ToolText>();

function textOf(tool: CatalogTool): ToolText {
  let text = texts.get(tool);
  if (text) return text;
  const words = (value: string | null | undefined) => [...new Set(value?.toLowerCase().match(WORD) ?? [])];
  const title = tool.title ?? (typeof tool.annotations?.title === 'string' ? tool.annotations.title : null);
  const properties = tool.inputSchema?.properties;
  const parameters = typeof properties === 'object' && properties !== null && !Array.isArray(properties) ? Object.keys(properties).join(' ') : '';
  const names = [tool.name.toLowerCase(), tool.qualifiedName.toLowerCase()];
  text = {
    fields: [words(names.join(' ')), words(title), words(tool.description), words(parameters)],
    names,
    prose: `${title ?? ''}\n${tool.description ?? ''}`.toLowerCase(),
  };
  texts.set(tool, text);
  return text;
}

/** The postings of one word: the tools (by position) where it occurs, with a bit per field. */
type Postings = Map<number, number>;

/** The first index of `sorted` holding a word not before `prefix`: where the words starting with it begin. */
function firstAtOrAfter(sorted: readonly string[], prefix: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < prefix) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * An inverted index of a set of tools (names, title, description, parameter names) and the one
 * ranking over it. Each part of the search matches the words it is a prefix of, or whose stem its
 * stem is a prefix of; in each field the better match counts (whole word or same stem above a
 * prefix), and the fields add up: a name weighs most, then the title, the description, a
 * parameter name. A tool scores by how many groups it matches first, then by those weights, a
 * bonus when it matches every group, one when the search is found as a phrase in its title or
 * description, and one when its name is, starts with or holds the search. Ties go by qualified
 * name.
 */
export class ToolSearchIndex {
  private readonly postings = new Map<string, Postings>();
  private readonly words: string[];
  /** Stem → the words that have it, and the stems sorted. */
  private readonly byStem = new Map<string, string[]>();
  private readonly stems: string[];

  constructor(private readonly tools: readonly CatalogTool[]) {
    tools.forEach((tool, position) => {
      const { fields } = textOf(tool);
      for (let field = 0; field < FIELDS; field++) {
        for (const word of fields[field]!) {
          let postings = this.postings.get(word);
          if (!postings) {
            postings = new Map();
            this.postings.set(word, postings);
          }
          postings.set(position, (postings.get(position) ?? 0) | (1 << field));
        }
      }
    });
    this.words = [...this.postings.keys()].sort();
    for (const word of this.words) {
      const s = stem(word);
      const same = this.byStem.get(s);
      if (same) same.push(word);
      else this.byStem.set(s, [word]);
    }
    this.stems = [...this.byStem.keys()].sort();
  }

  /** Every tool the search finds (of those `admit` lets through), best first. */
  search(query: SearchQuery, admit: (tool: CatalogTool) => boolean = () => true): SearchHit[] {
    const scores = new Map<number, { groups: number; weight: number }>();
    for (const group of query.groups) {
      let matched: Map<number, number> | undefined;
      for (const part of group) {
        const partScores = this.partScores(part);
        if (!matched) matched = partScores;
        else {
          const both = new Map<number, number>();
          for (const [position, weight] of matched) {
            const more = partScores.get(position);
            if (more !== undefined) both.set(position, weight + more);
          }
          matched = both;
        }
        if (matched.size === 0) break;
      }
      for (const [position, weight] of matched ?? []) {
        const score = scores.get(position);
        if (score) {
          score.groups++;
          score.weight += weight;
        } else scores.set(position, { groups: 1, weight });
      }
    }
    const lower = query.text.toLowerCase();
    // Names hold no blanks: only a one-word search can be part of a name.
    if (!lower.includes(' ')) {
      this.tools.forEach((tool, position) => {
        if (!scores.has(position) && textOf(tool).names.some((name) => name.includes(lower))) scores.set(position, { groups: 0, weight: 0 });
      });
    }
    const hits: SearchHit[] = [];
    for (const [position, { groups, weight }] of scores) {
      const tool = this.tools[position]!;
      if (!admit(tool)) continue;
      hits.push({ tool, score: groups * PER_GROUP + weight + this.bonus(tool, query, lower, groups) });
    }
    hits.sort((a, b) => b.score - a.score || (a.tool.qualifiedName < b.tool.qualifiedName ? -1 : a.tool.qualifiedName > b.tool.qualifiedName ? 1 : 0));
    return hits;
  }

  private bonus(tool: CatalogTool, query: SearchQuery, lower: string, groups: number): number {
    const text = textOf(tool);
    let bonus = 0;
    if (groups > 0 && groups === query.groups.length) bonus += ALL_GROUPS_BONUS;
    if (query.groups.length > 1 && text.prose.includes(lower)) bonus += PHRASE_BONUS;
    if (text.names.some((name) => name === lower)) bonus += NAME_EXACT_BONUS;
    else if (text.names.some((name) => name.startsWith(lower))) bonus += NAME_PREFIX_BONUS;
    else if (text.names.some((name) => name.includes(lower))) bonus += NAME_SUBSTRING_BONUS;
    return bonus;
  }

  /** What one part of a search scores in each tool where it matches (the best match per field, summed). */
  private partScores(part: string): Map<number, number> {
    // The words the part matches, each with whether it matched whole (or by the same stem).
    const matches = new Map<string, boolean>();
    for (let i = firstAtOrAfter(this.words, part); i < this.words.length && this.words[i]!.startsWith(part); i++) {
      const word = this.words[i]!;
      matches.set(word, word === part);
    }
    const partStem = stem(part);
    for (let i = firstAtOrAfter(this.stems, partStem); i < this.stems.length && this.stems[i]!.startsWith(partStem); i++) {
      const exact = this.stems[i] === partStem;
      for (const word of this.byStem.get(this.stems[i]!)!) matches.set(word, matches.get(word) === true || exact);
    }
    const best = new Map<number, number[]>();
    for (const [word, exact] of matches) {
      for (const [position, fields] of this.postings.get(word)!) {
        let weights = best.get(position);
        if (!weights) {
          weights = [0, 0, 0, 0];
          best.set(position, weights);
        }
        for (let field = 0; field < FIELDS; field++) {
          if (fields & (1 << field)) weights[field] = Math.max(weights[field]!, (exact ? EXACT : PREFIX)[field]!);
        }
      }
    }
    const scores = new Map<number, number>();
    for (const [position, weights] of best) {
      const sum = weights[0]! + weights[1]! + weights[2]! + weights[3]!;
      if (sum > 0) scores.set(position, sum);
    }
    return scores;
  }
}

/** The first `limit` hits of a search over `tools` (built for one search; a snapshot keeps its index). */
export function searchTools(tools: readonly CatalogTool[], query: string, limit: number): SearchHit[] {
  const parsed = parseSearch(query);
  if (!parsed) return tools.slice(0, limit).map((tool) => ({ tool, score: 0 }));
  return new ToolSearchIndex(tools).search(parsed).slice(0, limit);
}
