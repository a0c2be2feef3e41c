#!/usr/bin/env node
// Thin launcher so `npx sibyl …` runs the compiled CLI (built by `npm install` via the prepare script).
import('../dist/src/cli.js');
