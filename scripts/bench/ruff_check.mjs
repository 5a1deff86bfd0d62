// Runs ruff's F rules (pyflakes' checks) through its WebAssembly build on
// every file named in a list file, as one process, the way the benchmark
// runs pyflakes: node ruff_check.mjs LISTFILE. Prints the number of files
// and diagnostics on stdout.
import { readFileSync } from 'node:fs';
import { Workspace } from '@astral-sh/ruff-wasm-nodejs';

const list = readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
if (process.argv[3] === '--version') {
  console.log(Workspace.version());
  process.exit(0);
}
const ws = new Workspace({ lint: { select: ['F'] } }, 0);
let diags = 0;
let files = 0;
for (const path of list) {
  let src;
  try {
    src = readFileSync(path, 'utf8');
  } catch {
    continue;
  }
  files++;
  diags += ws.check(src).length;
}
console.log(`${files} files, ${diags} diagnostics`);
