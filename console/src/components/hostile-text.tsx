import type { Schemas } from '../types.js';

type Finding = Schemas['DefinitionFindingDto'];
type Hunk = Schemas['TextHunkDto'];

/**
 * Upstream texts are hostile: they are only ever rendered as text nodes, and the characters a
 * reader cannot see (controls, zero-width and bidirectional marks, odd spaces) are shown by their
 * code point, so that what is hidden from a reader is not hidden from the reviewer.
 */
const INVISIBLE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00, 0x08], [0x0b, 0x1f], [0x7f, 0xa0], [0xad, 0xad], [0x34f, 0x34f], [0x61c, 0x61c], [0x115f, 0x1160], [0x17b4, 0x17b5], [0x180b, 0x180f],
  [0x2000, 0x200f], [0x2028, 0x202f], [0x205f, 0x206f], [0x3000, 0x3000], [0x3164, 0x3164], [0xfe00, 0xfe0f], [0xfeff, 0xfeff], [0xfff9, 0xfffb], [0xe0000, 0xe0fff],
];
const isInvisible = (code: number) => INVISIBLE_RANGES.some(([from, to]) => code >= from && code <= to);

export function Visible(props: { text: string }) {
  const parts: preact.ComponentChildren[] = [];
  let plain = '';
  for (const character of props.text) {
    const code = character.codePointAt(0)!;
    if (!isInvisible(code)) {
      plain += character;
      continue;
    }
    if (plain) parts.push(plain);
    plain = '';
    parts.push(
      <span class="invisible" title="An invisible character">
        {`U+${code.toString(16).toUpperCase().padStart(4, '0')}`}
      </span>,
    );
  }
  if (plain) parts.push(plain);
  return <>{parts}</>;
}

interface Piece {
  text: string;
  changed: boolean;
  finding: Finding | undefined;
}

/** The text a finding's excerpt quotes: the scan cuts it with `…` and writes invisible characters as `\u{…}`. */
function quoted(excerpt: string): string {
  return excerpt
    .replace(/^…/, '')
    .replace(/…$/, '')
    .replace(/\\u\{([0-9a-fA-F]{1,6})\}/g, (_all, hex: string) => String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff)));
}

/** Cuts `text` at the changed ranges and at every occurrence of a finding's excerpt. */
function pieces(text: string, changed: Array<[number, number]>, findings: readonly Finding[]): Piece[] {
  const marks: Array<[number, number, Finding]> = [];
  for (const finding of findings) {
    const excerpt = quoted(finding.excerpt);
    if (!excerpt) continue;
    for (let at = text.indexOf(excerpt); at !== -1; at = text.indexOf(excerpt, at + excerpt.length)) marks.push([at, at + excerpt.length, finding]);
  }
  const cuts = new Set<number>([0, text.length]);
  for (const [start, end] of [...changed, ...marks]) cuts.add(start).add(end);
  const sorted = [...cuts].sort((a, b) => a - b);
  const result: Piece[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) {
    const [start, end] = [sorted[i]!, sorted[i + 1]!];
    if (start === end) continue;
    result.push({
      text: text.slice(start, end),
      changed: changed.some(([from, to]) => from <= start && end <= to),
      finding: marks.find(([from, to]) => from <= start && end <= to)?.[2],
    });
  }
  return result;
}

function Pieces(props: { pieces: Piece[]; change: 'added' | 'removed' }) {
  return (
    <>
      {props.pieces.map((piece, index) => {
        let content: preact.ComponentChildren = <Visible text={piece.text} />;
        if (piece.finding) {
          content = (
            <mark class={`finding finding-${piece.finding.severity}`} title={`${piece.finding.rule} (${piece.finding.severity}): ${piece.finding.message}`}>
              {content}
            </mark>
          );
        }
        if (piece.changed) content = props.change === 'added' ? <ins>{content}</ins> : <del>{content}</del>;
        return <span key={index}>{content}</span>;
      })}
    </>
  );
}

/** A text with the findings' excerpts marked where they occur. */
export function MarkedText(props: { text: string; findings?: readonly Finding[] }) {
  return (
    <span class="hostile-text">
      <Pieces pieces={pieces(props.text, [], props.findings ?? [])} change="added" />
    </span>
  );
}

/** One side of a text diff: the old text (equal + removed hunks) or the new one (equal + added), the changed words marked. */
export function DiffSide(props: { hunks: readonly Hunk[]; side: 'before' | 'after'; findings?: readonly Finding[] }) {
  const skip = props.side === 'before' ? 'added' : 'removed';
  let text = '';
  const changed: Array<[number, number]> = [];
  for (const hunk of props.hunks) {
    if (hunk.op === skip) continue;
    if (hunk.op !== 'equal') changed.push([text.length, text.length + hunk.text.length]);
    text += hunk.text;
  }
  return (
    <span class="hostile-text">
      <Pieces pieces={pieces(text, changed, props.findings ?? [])} change={props.side === 'before' ? 'removed' : 'added'} />
    </span>
  );
}
