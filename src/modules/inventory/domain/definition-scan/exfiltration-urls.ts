import type { PatternMatch } from './text-patterns.js';

/** An http(s) URL: a run of characters that end none (linear: one character class). */
const URL = /\bhttps?:\/\/[^\s"'<>`)\]]{1,2048}/g;
/** URLs of one text looked at, at most. */
const URLS_MAX = 50;
/** How far before a URL an instruction to send to it is looked for. */
const LOOK_BACK = 160;
/** Imperative verbs of sending (the base form: "Posts a message to …" describes, "post … to" instructs). */
const SEND_VERB = /\b(?:send|post|upload|forward|transmit|exfiltrate|leak|beacon)\b/;
/** A placeholder in a URL's query: `{…}`, `{{…}}`, `${…}`, `<…>`, or their percent-encoded braces. */
const QUERY_PLACEHOLDER = /[?&][^=&#]{0,64}=[^&#]{0,64}(?:\{|\$\{|<|%7b|%3c)/;

/**
 * `exfiltration-url`: an instruction to send something to an http(s) URL (a sending verb earlier in
 * the same sentence), or a URL whose query carries data through a placeholder
 * (`?text={conversation}`). A documentation link, or a URL with placeholders in its path only
 * (`https://github.com/{owner}/{repo}`), is neither.
 */
export function exfiltrationUrl(folded: string): PatternMatch | undefined {
  URL.lastIndex = 0;
  for (let count = 0; count < URLS_MAX; count++) {
    const match = URL.exec(folded);
    if (match === null) return undefined;
    const start = match.index;
    const end = start + match[0].length;
    if (QUERY_PLACEHOLDER.test(match[0])) return { start, end, severity: 'high', says: 'holds a URL whose query is a template for data' };
    const before = folded.slice(Math.max(0, start - LOOK_BACK), start);
    const sentenceStart = Math.max(before.lastIndexOf('. '), before.lastIndexOf('\n'), before.lastIndexOf('! '), before.lastIndexOf('? '));
    const sentence = sentenceStart < 0 ? before : before.slice(sentenceStart + 1);
    const verb = SEND_VERB.exec(sentence);
    if (verb !== null) {
      return { start: start - sentence.length + verb.index, end, severity: 'high', says: 'tells the model to send something to a URL' };
    }
  }
  return undefined;
}
