#!/usr/bin/env node
// Assembles every WebAssembly text file under src/ (src/**/*.wat) with the `wabt` npm package into a
// binary module at the same place under dist/ (src/a/b.wat → dist/src/a/b.wasm), where the compiled
// module that loads it (readFileSync next to its own URL) finds it. Part of every build script.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import initWabt from 'wabt';

/** Post-MVP features the kernels use: memory.copy (bulk memory), v128 (SIMD), shared memory (threads). */
const FEATURES = { bulk_memory: true, simd: true, threads: true };

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (name.endsWith('.wat')) out.push(p);
  }
  return out;
}

const wabt = await initWabt();
for (const source of walk('src')) {
  const target = join('dist', source.replace(/\.wat$/, '.wasm'));
  const module = wabt.parseWat(source, readFileSync(source, 'utf8'), FEATURES);
  try {
    module.resolveNames();
    module.validate(FEATURES);
    const { buffer } = module.toBinary({ log: false, write_debug_names: true });
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, buffer);
    console.log(`wasm: ${relative('.', source)} → ${target} (${buffer.length} bytes)`);
  } finally {
    module.destroy();
  }
}
