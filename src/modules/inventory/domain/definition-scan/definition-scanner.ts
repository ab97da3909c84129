import type { DefinitionFinding, ScannedTool } from './definition-finding.js';
import { definitionTexts, type DefinitionText } from './definition-texts.js';
import { excerptAround } from './excerpt.js';
import { invisibleCharacters } from './invisible-characters.js';
import { LookalikeNames } from './lookalike-names.js';

/** A text longer than this is an `oversize-description` (low). */
export const OVERSIZE_TEXT_CHARS = 4_000;

/**
 * Signs of tool poisoning in one tool definition: a deterministic scan of every text of it (name,
 * title, description, every string and member name of inputSchema, outputSchema and annotations),
 * bounded in the text it reads (definition-texts.ts) and linear in it. Built once per refresh over
 * every other source's tools (for look-alike names and shadowing); `scan` is then called per tool.
 */
export class DefinitionScanner {
  private readonly lookalikes: LookalikeNames;

  constructor(otherSourcesTools: readonly ScannedTool[]) {
    this.lookalikes = new LookalikeNames(otherSourcesTools);
  }

  scan(tool: ScannedTool): DefinitionFinding[] {
    const findings: DefinitionFinding[] = [];
    const { texts, unread } = definitionTexts(tool);
    for (const text of texts) {
      const invisible = invisibleCharacters(text);
      if (invisible !== undefined) findings.push(invisible);
      if (text.length > OVERSIZE_TEXT_CHARS) findings.push(oversize(text));
    }
    if (unread !== undefined) {
      findings.push({ rule: 'oversize-definition', severity: 'low', path: '', excerpt: '', message: `Part of the definition was not scanned: ${unread}.` });
    }
    const lookalike = this.lookalikes.find(tool);
    if (lookalike !== undefined) findings.push(lookalike);
    return findings;
  }
}

function oversize(text: DefinitionText): DefinitionFinding {
  return {
    rule: 'oversize-description',
    severity: 'low',
    path: text.path,
    excerpt: excerptAround(text.text, OVERSIZE_TEXT_CHARS, OVERSIZE_TEXT_CHARS + 1),
    message: `The ${text.path} is ${text.length} characters long (more than ${OVERSIZE_TEXT_CHARS}), room to hide instructions a reviewer does not read.`,
  };
}
