// Builds the console into dist/console: one script, one stylesheet, one page. No CDN, no fonts.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(here, '../dist/console');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: { app: resolve(here, 'src/main.tsx'), styles: resolve(here, 'src/styles.css') },
  outdir: out,
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'esm',
  target: ['chrome110', 'firefox110', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
});
copyFileSync(resolve(here, 'index.html'), resolve(out, 'index.html'));
copyFileSync(resolve(here, 'favicon.svg'), resolve(out, 'favicon.svg'));
