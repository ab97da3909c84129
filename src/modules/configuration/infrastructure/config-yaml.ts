import { offThread } from '../../../shared/off-thread/off-thread-worker.js';
import { parseYamlText, type YamlText } from '../../../shared/yaml-text.js';

/** Below this size a file parses in about a millisecond; a 1 MiB one held the event loop ~800 ms. */
const IN_PLACE_MAX_CHARS = 16 * 1024;

/** Parses a configuration file's text, off the event loop when it is large. */
export function parseConfigYaml(text: string): Promise<YamlText> {
  if (text.length <= IN_PLACE_MAX_CHARS || !offThread.available) return Promise.resolve(parseYamlText(text));
  return offThread.run({ kind: 'yaml', text });
}
