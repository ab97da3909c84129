import { foldedForMatching } from './confusables.js';
import type { DefinitionFinding, ScannedTool } from './definition-finding.js';
import { definitionTexts, type DefinitionText } from './definition-texts.js';
import { excerptAround } from './excerpt.js';
import { exfiltrationUrl } from './exfiltration-urls.js';
import { INSTRUCTION_PATTERNS } from './instruction-patterns.js';
import { invisibleCharacters, textInTagCharacters } from './invisible-characters.js';
import { LookalikeNames } from './lookalike-names.js';
import { SECRET_PATTERNS } from './secret-patterns.js';
import { ShadowingNames } from './shadowing.js';
import { strongestMatch, type PatternMatch } from './text-patterns.js';

/** A text longer than this is an `oversize-description` (low). */
export const OVERSIZE_TEXT_CHARS = 4_000;

const SPACE = /\s/;
/** The secret-path pattern of files alone, for texts without phrases. */
const SECRET_FILES = SECRET_PATTERNS.slice(0, 1);

/** Rules whose finding in a definition makes its shadowing high: it then tells the model to act. */
const ACTING_RULES = new Set(['instruction-to-model', 'secret-path', 'exfiltration-url']);

/** A text as the text rules read it: folded for matching, and where its excerpts come from. */
interface ReadText {
  path: string;
  shown: string;
  folded: string;
  /** Read from tag characters: what the text spells invisibly. */
  hidden: boolean;
}

/**
 * Signs of tool poisoning in one tool definition: a deterministic scan of every text of it (name,
 * title, description, every string and member name of inputSchema, outputSchema and annotations),
 * bounded in the text it reads (definition-texts.ts) and linear in it. Built once per refresh over
 * every other source's tools (for look-alike names and shadowing); `scan` is then called per tool.
 * What tag characters spell is read as text too, so an instruction smuggled in them is found as
 * what it says besides being invisible.
 */
export class DefinitionScanner {
  private readonly lookalikes: LookalikeNames;
  private readonly shadowing: ShadowingNames;

  constructor(otherSourcesTools: readonly ScannedTool[]) {
    this.lookalikes = new LookalikeNames(otherSourcesTools);
    this.shadowing = new ShadowingNames(otherSourcesTools);
  }

  scan(tool: ScannedTool): DefinitionFinding[] {
    const steps = this.scanSteps(tool);
    let step = steps.next();
    while (!step.done) step = steps.next();
    return step.value;
  }

  /**
   * `scan` a text at a time: the generator pauses after each text it read (so a caller can let the
   * event loop turn within a large definition) and returns the findings.
   */
  *scanSteps(tool: ScannedTool): Generator<void, DefinitionFinding[], void> {
    const findings: DefinitionFinding[] = [];
    const found = new Set<string>();
    const add = (finding: DefinitionFinding): void => {
      const key = `${finding.rule} ${finding.path}`;
      if (found.has(key)) return;
      found.add(key);
      findings.push(finding);
    };
    const { texts, unread } = definitionTexts(tool);
    const shadows: DefinitionFinding[] = [];
    for (const text of texts) {
      const invisible = invisibleCharacters(text);
      if (invisible !== undefined) add(invisible);
      if (text.length > OVERSIZE_TEXT_CHARS) add(oversize(text));
      for (const read of readTexts(text, invisible !== undefined)) {
        const textFinding = (rule: string, match: PatternMatch | undefined): void => {
          if (match !== undefined) add(matchFinding(rule, read, match));
        };
        // Instructions and requests are phrases: a short text of one word (a member name, `object`)
        // has none, and most texts of a schema are such words.
        const phrases = read.folded.length > 32 || SPACE.test(read.folded);
        if (phrases) textFinding('instruction-to-model', strongestMatch(INSTRUCTION_PATTERNS, read.folded));
        textFinding('secret-path', strongestMatch(phrases ? SECRET_PATTERNS : SECRET_FILES, read.folded));
        if (read.folded.includes('http')) textFinding('exfiltration-url', exfiltrationUrl(read.folded));
        if (read.path !== 'name') {
          const shadow = this.shadowing.find(tool, read.folded);
          if (shadow !== undefined && !shadows.some((other) => other.path === read.path)) shadows.push(matchFinding('shadowing', read, shadow));
        }
      }
      yield;
    }
    const acting = findings.some((finding) => ACTING_RULES.has(finding.rule));
    for (const shadow of shadows) add(acting ? { ...shadow, severity: 'high', message: `${shadow.message.slice(0, -1)}, beside instructions to the model.` } : shadow);
    if (unread !== undefined) {
      add({ rule: 'oversize-definition', severity: 'low', path: '', excerpt: '', message: `Part of the definition was not scanned: ${unread}.` });
    }
    const lookalike = this.lookalikes.find(tool);
    if (lookalike !== undefined) add(lookalike);
    return findings;
  }
}

function readTexts(text: DefinitionText, hasInvisible: boolean): ReadText[] {
  const texts: ReadText[] = [{ path: text.path, shown: text.text, folded: foldedForMatching(text.text), hidden: false }];
  const spelled = hasInvisible ? textInTagCharacters(text.text) : '';
  if (spelled.length > 0) texts.push({ path: text.path, shown: spelled, folded: spelled.toLowerCase(), hidden: true });
  return texts;
}

function matchFinding(rule: string, read: ReadText, match: PatternMatch): DefinitionFinding {
  const where = read.hidden ? `The ${read.path}, in text hidden in tag characters,` : `The ${read.path}`;
  return { rule, severity: match.severity, path: read.path, excerpt: excerptAround(read.shown, match.start, match.end), message: `${where} ${match.says}.` };
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
