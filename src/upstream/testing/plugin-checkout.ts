import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Writes a package checked out at `dir`: a named root, a dependency in its node_modules, a script (dist/server.js) beside a sibling module. */
export function checkOutPlugin(dir: string): void {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'plugin-under-tmp', type: 'module' }),
    'node_modules/greeting/package.json': JSON.stringify({ name: 'greeting', type: 'module', exports: './index.js' }),
    'node_modules/greeting/index.js': "export const greeting = 'hello';\n",
    'dist/package.json': JSON.stringify({ type: 'module' }),
    'dist/sibling.js': "export const from = 'sibling';\n",
    'dist/server.js': "import { greeting } from 'greeting';\nimport { from } from './sibling.js';\nprocess.stdout.write(`${greeting} from ${from}`);\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  // Readable by the sandbox user, as an operator makes a plugin's files.
  for (const path of [dir, join(dir, 'node_modules'), join(dir, 'node_modules/greeting'), join(dir, 'dist')]) chmodSync(path, 0o755);
}
