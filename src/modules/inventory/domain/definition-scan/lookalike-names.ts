import { editDistance } from '../../../../shared/near-miss.js';
import type { DefinitionFinding, FindingSeverity, ScannedTool } from './definition-finding.js';
import { hasLookalikeLetter, nameAsSeen } from './confusables.js';

/** Names shorter than this are not compared by edit distance: too many short names differ by one letter. */
export const LOOKALIKE_MIN_LENGTH = 5;
/** Characters of a name compared at most. */
const NAME_MAX_CHARS = 128;

interface Neighbour {
  sourceName: string;
  name: string;
}

/** A name with its non-ASCII characters written as `\u{…}`, so a look-alike shows itself. */
export function revealedName(name: string): string {
  let out = '';
  for (const char of name.slice(0, NAME_MAX_CHARS)) {
    const codePoint = char.codePointAt(0)!;
    out += codePoint >= 0x20 && codePoint < 0x7f ? char : `\\u{${codePoint.toString(16).toUpperCase()}}`;
    if (out.length >= 150) return `${out.slice(0, 150)}…`;
  }
  return out;
}

/** Every string one deletion away from `name` (and `name` itself): two names within one edit share one. */
function deletionKeys(name: string): string[] {
  const keys = [name];
  for (let index = 0; index < name.length; index++) keys.push(name.slice(0, index) + name.slice(index + 1));
  return keys;
}

/**
 * `lookalike-name`: a tool named as another source's tool is, or so that it reads the same — the
 * same name (medium), the same once letters of other scripts that imitate Latin ones are folded
 * (high) or once case, 0/o and 1/l are (medium), or one edit away for names of LOOKALIKE_MIN_LENGTH
 * characters or more (medium). Indexed once over the neighbours, so each name costs look-ups
 * proportional to its length.
 */
export class LookalikeNames {
  private readonly exact = new Map<string, Neighbour[]>();
  private readonly seen = new Map<string, Neighbour[]>();
  private readonly byDeletion = new Map<string, Neighbour[]>();

  constructor(neighbours: readonly ScannedTool[]) {
    for (const { sourceName, name } of neighbours) {
      if (typeof name !== 'string' || name.length === 0) continue;
      const neighbour = { sourceName, name: name.slice(0, NAME_MAX_CHARS) };
      add(this.exact, neighbour.name, neighbour);
      add(this.seen, nameAsSeen(neighbour.name), neighbour);
      if (neighbour.name.length >= LOOKALIKE_MIN_LENGTH - 1) {
        for (const key of new Set(deletionKeys(neighbour.name.toLowerCase()))) add(this.byDeletion, key, neighbour);
      }
    }
  }

  find(tool: ScannedTool): DefinitionFinding | undefined {
    if (typeof tool.name !== 'string' || tool.name.length === 0) return undefined;
    const name = tool.name.slice(0, NAME_MAX_CHARS);
    const others = (list: Neighbour[] | undefined): Neighbour[] => (list ?? []).filter((other) => other.sourceName !== tool.sourceName);

    const same = others(this.exact.get(name))[0];
    const seenAlike = others(this.seen.get(nameAsSeen(name))).find((other) => other.name !== name);
    if (seenAlike !== undefined && hasLookalikeLetter(name) && !hasLookalikeLetter(seenAlike.name)) {
      return finding('high', name, seenAlike, 'imitates, with letters of another script that look like Latin ones,');
    }
    if (same !== undefined) return finding('medium', name, same, 'has the same name as');
    if (seenAlike !== undefined) return finding(hasLookalikeLetter(name) ? 'high' : 'medium', name, seenAlike, 'reads the same as');
    if (name.length < LOOKALIKE_MIN_LENGTH) return undefined;
    const lower = name.toLowerCase();
    for (const key of deletionKeys(lower)) {
      for (const other of others(this.byDeletion.get(key))) {
        if (other.name.length < LOOKALIKE_MIN_LENGTH) continue;
        if (editDistance(lower, other.name.toLowerCase(), 2) === 1) return finding('medium', name, other, 'is one letter away from');
      }
    }
    return undefined;
  }
}

function add(map: Map<string, Neighbour[]>, key: string, neighbour: Neighbour): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [neighbour]);
  else list.push(neighbour);
}

function finding(severity: FindingSeverity, name: string, other: Neighbour, how: string): DefinitionFinding {
  return {
    rule: 'lookalike-name',
    severity,
    path: 'name',
    excerpt: revealedName(name),
    message: `The tool's name ${how} the tool ${revealedName(other.name)} of source ${revealedName(other.sourceName)}.`,
  };
}
