#!/usr/bin/env node
// Builds the dashboard (web/ → web/dist) with a type check first, unless web/dist was built from
// exactly these sources already (a hash of web/'s sources and the lock file is kept beside it), so
// `npm start` and `npm test` pay for the build once. `--force` builds regardless.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const web = join(root, 'web');
const stampFile = join(web, 'dist', '.sources-hash');

function files(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

const hash = createHash('sha256');
for (const f of [...files(join(web, 'src')), join(web, 'index.html'), join(web, 'vite.config.ts'), join(web, 'tsconfig.json'), join(root, 'package-lock.json')]) {
  hash.update(f.slice(root.length)).update('\0').update(readFileSync(f));
}
const digest = hash.digest('hex');
if (!process.argv.includes('--force') && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === digest) {
  console.log('dashboard: web/dist is up to date');
  process.exit(0);
}

const run = (args, what) => {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`dashboard: ${what} failed`);
    process.exit(r.status ?? 1);
  }
};
console.log('dashboard: type-checking and building web/ …');
run([join(root, 'node_modules/typescript/bin/tsc'), '-p', 'web/tsconfig.json'], 'type check');
run([join(root, 'node_modules/vite/bin/vite.js'), 'build', 'web', '--logLevel', 'warn'], 'vite build');
writeFileSync(stampFile, digest);
console.log('dashboard: built web/dist');
