import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A PostgreSQL server of the test's own (initdb into a temporary directory, on a free port), for
 * faults that stop the server: restarting the machine's shared server would break everybody else's
 * tests. Needs PostgreSQL's server binaries (/usr/lib/postgresql/<version>/bin); as root the
 * server runs as the `postgres` user, since PostgreSQL refuses to run as root.
 */
export interface PrivatePostgres {
  url: string;
  stop(): void;
  start(): void;
  restart(): void;
  remove(): void;
}

/** The directory of initdb/pg_ctl, or why a private server cannot be made here. */
export function privatePostgresBinaries(): { bin: string } | { missing: string } {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (versions.length === 0) return { missing: `no PostgreSQL server binaries under ${root}/*/bin (initdb, pg_ctl)` };
  if (process.getuid?.() === 0) {
    try { execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' }); } catch { return { missing: 'running as root without a postgres user to run a private server as' }; }
  }
  return { bin: join(root, versions[0]!, 'bin') };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startPrivatePostgres(bin: string): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'sibyl-private-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
    execFileSync(cmd, argv, { stdio: ['ignore', 'ignore', 'inherit'] });
  };
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  // A socket directory of its own, and no fsync: this server lives for one test.
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=100`;
  const pgCtl = (...args: string[]) => run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '60', ...args]);
  pgCtl('start');
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() { pgCtl('stop', '-m', 'fast'); running = false; },
    start() { pgCtl('start'); running = true; },
    restart() { pgCtl('restart', '-m', 'fast'); running = true; },
    remove() {
      if (running) { try { pgCtl('stop', '-m', 'immediate'); } catch { /* already down */ } }
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
