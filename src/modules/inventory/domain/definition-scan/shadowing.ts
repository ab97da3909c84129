import type { ScannedTool } from './definition-finding.js';
import type { PatternMatch } from './text-patterns.js';

/** Words of a text, as tool names are written: letters, digits, `_` and `-` (linear: one character class). */
const WORD = /[a-z0-9][a-z0-9_-]*/g;
/** Words of one text looked up, at most. */
const WORDS_MAX = 20_000;
/** Words longer than this are no tool's name (names are compared up to this length). */
const NAME_MAX_CHARS = 128;
/** Parts of a word (split at `_`) looked up, at most. */
const PARTS_MAX = 8;
/** What may follow a source's name when a text speaks of its tools: "the github server's tools". */
const ABOUT_TOOLS = /^(?:'s)?\s+(?:(?:mcp|server'?s?|source'?s?)\s+)?(?:tools?|server|mcp)\b/;
/** Words of a text about other tools that need no neighbour to name: side effects on them. */
const OTHER_TOOLS = /\bside\s+effects?\s+on\s+(?:the\s+)?(?:(?:also\s+present|other|existing)\s+)/;

interface Named {
  sourceName: string;
  name: string;
}

/** Whether a tool name reads as an identifier rather than a word ("send_email", "getUser", not "echo"). */
function identifierLike(name: string): boolean {
  return name.length >= 4 && /[_\-0-9]|[a-z][A-Z]/.test(name);
}

/**
 * `shadowing`: a text that speaks of another source's tools — names one of its tools (as an
 * identifier: a plain-word name such as "search" is not told apart from the word), speaks of another
 * source by name followed by "tools" or "server", or of side effects on other tools. Words are
 * looked up in maps built once over the neighbours, so a text costs one pass.
 */
export class ShadowingNames {
  private readonly tools = new Map<string, Named[]>();
  private readonly sources = new Map<string, string>();

  constructor(neighbours: readonly ScannedTool[]) {
    for (const { sourceName, name } of neighbours) {
      if (typeof sourceName === 'string' && sourceName.length >= 3) this.sources.set(sourceName.toLowerCase(), sourceName);
      if (typeof name !== 'string' || !identifierLike(name)) continue;
      const key = name.toLowerCase();
      const list = this.tools.get(key);
      if (list === undefined) this.tools.set(key, [{ sourceName, name }]);
      else list.push({ sourceName, name });
    }
  }

  /** The first mention of another source's tools in a folded text of `tool`. */
  find(tool: ScannedTool, folded: string): (PatternMatch & { named?: string }) | undefined {
    const own = typeof tool.name === 'string' ? tool.name.toLowerCase() : '';
    const ownSource = tool.sourceName.toLowerCase();
    WORD.lastIndex = 0;
    for (let count = 0; count < WORDS_MAX; count++) {
      const match = WORD.exec(folded);
      if (match === null) break;
      const word = match[0];
      const end = match.index + word.length;
      // "mcp_tool_send_email" speaks of send_email: look up the word and what follows each of its
      // first few `_` (a word longer than any name is not looked up).
      if (word.length > NAME_MAX_CHARS) continue;
      for (let from = 0, parts = 0; from >= 0 && from < word.length && parts < PARTS_MAX; from = nextPart(word, from), parts++) {
        const part = from === 0 ? word : word.slice(from);
        if (part === own) continue;
        const other = this.tools.get(part)?.find((named) => named.sourceName.toLowerCase() !== ownSource);
        if (other !== undefined) {
          return { start: match.index + from, end, severity: 'medium', says: `names the tool ${other.name} of source ${other.sourceName}`, named: other.name };
        }
      }
      const source = this.sources.get(word);
      if (source !== undefined && word !== ownSource && ABOUT_TOOLS.test(folded.slice(end, end + 40))) {
        return { start: match.index, end, severity: 'medium', says: `speaks of the tools of source ${source}` };
      }
    }
    const generic = OTHER_TOOLS.exec(folded);
    if (generic !== null) return { start: generic.index, end: generic.index + generic[0].length, severity: 'medium', says: 'speaks of side effects on other tools' };
    return undefined;
  }
}

/** Where the part of a word after its next `_` starts, or -1. */
function nextPart(word: string, from: number): number {
  const underscore = word.indexOf('_', from + 1);
  return underscore < 0 ? -1 : underscore + 1;
}
