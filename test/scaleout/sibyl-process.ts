import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The built CLI (`npm run test:slow` compiles first); the processes are the real `sibyl` binary. */
export const CLI = resolve('dist/src/cli.js');

export interface SibylProcess {
  pid: number;
  /** For `serve`: the base URL it printed once listening. */
  url: string;
  output(): string;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `node dist/src/cli.js <command>` and resolves once it says it is ready. */
export async function startSibyl(command: 'serve' | 'worker', env: Record<string, string>, readyWithinMs = 60000, args: string[] = []): Promise<SibylProcess> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npx tsc -p tsconfig.json)`);
  const child: ChildProcess = spawn(process.execPath, [CLI, command, ...args], {
    env: { PATH: process.env.PATH ?? '', SIBYL_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
  child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const ready = command === 'serve' ? /Sibyl listening on (http:\/\/\S+)/ : /Sibyl worker running/;
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`sibyl ${command} not ready in ${readyWithinMs} ms:\n${out}`)), readyWithinMs);
    const check = () => {
      const m = ready.exec(out);
      if (m) { clearTimeout(timer); done(m[1] ?? ''); }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => { clearTimeout(timer); fail(new Error(`sibyl ${command} exited with ${code}:\n${out}`)); });
  });
  return {
    pid: child.pid!,
    url,
    output: () => out,
    exited,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
