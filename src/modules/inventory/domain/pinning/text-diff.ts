import { diffLines, diffWordsWithSpace, type ChangeObject } from 'diff';

export interface TextHunk {
  op: 'equal' | 'added' | 'removed';
  text: string;
}

/**
 * A text's changes as hunks which, read in order, spell the text before (equal and removed) and
 * after (equal and added). `granularity`: words where the texts differ little enough to align
 * words, else lines, else the whole text replaced.
 */
export interface TextDiff {
  granularity: 'word' | 'line' | 'whole';
  hunks: TextHunk[];
}

/** Edits beyond which an alignment is given up for a coarser one: the diff's time stays bounded whatever the texts. */
const MAX_EDITS = 400;
const TIMEOUT_MS = 50;

export function textDiff(before: string, after: string): TextDiff {
  const options = { maxEditLength: MAX_EDITS, timeout: TIMEOUT_MS };
  const words = diffWordsWithSpace(before, after, options);
  if (words) return { granularity: 'word', hunks: hunksOf(words) };
  const lines = diffLines(before, after, options);
  if (lines) return { granularity: 'line', hunks: hunksOf(lines) };
  const hunks: TextHunk[] = [];
  if (before !== '') hunks.push({ op: 'removed', text: before });
  if (after !== '') hunks.push({ op: 'added', text: after });
  return { granularity: 'whole', hunks };
}

function hunksOf(parts: ChangeObject<string>[]): TextHunk[] {
  const hunks: TextHunk[] = [];
  for (const part of parts) {
    if (part.value === '') continue;
    const op = part.added ? 'added' : part.removed ? 'removed' : 'equal';
    const last = hunks.at(-1);
    if (last?.op === op) last.text += part.value;
    else hunks.push({ op, text: part.value });
  }
  return hunks;
}

/** The text a diff was read from (`before`) or toward (`after`). */
export function textOf(diff: TextDiff, side: 'before' | 'after'): string {
  const skipped = side === 'before' ? 'added' : 'removed';
  return diff.hunks
    .filter((hunk) => hunk.op !== skipped)
    .map((hunk) => hunk.text)
    .join('');
}
