import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = join(process.cwd(), 'dist/src/cli.js');
const dataDir = mkdtempSync(join(tmpdir(), 'sibyl-cli-'));
const env = { ...process.env, SIBYL_DATA_DIR: dataDir, DATABASE_URL: '', SIBYL_LOG_LEVEL: 'warn' };

function sibyl(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', timeout: 60000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Starts `sibyl serve` and resolves with its stdout once it listens (rejects with its output if it exits first). */
function serving(server: ReturnType<typeof spawn>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (d) => { out += d; if (/listening on (\S+)/.test(out)) resolve(out); });
    server.once('exit', () => reject(new Error('server exited: ' + out)));
  });
}

describe('sibyl CLI (embedded store)', () => {
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('sibyl help (or --help) prints the commands and where the settings are, and exits 0', () => {
    for (const args of [['help'], ['--help']]) {
      const r = sibyl(...args);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /sibyl worker \[--concurrency N\]/);
      assert.match(r.out, /PORT/);
    }
    assert.match(sibyl('serve-all').err, /unknown command 'serve-all'.*\(sibyl help\)/);
  });

  it('refuses a wrong --workers or --concurrency before opening anything, naming the option', () => {
    for (const [args, says] of [[['serve', '--workers', 'two'], /--workers "two" is not a whole number of at least 0/], [['worker', '--concurrency', '0'], /--concurrency "0" is not a whole number of at least 1/], [['serve', '--threads', '3'], /usage: sibyl serve \[--workers N\]/]] as const) {
      const r = sibyl(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.out} ${r.err}`);
      assert.match(r.err, says);
    }
  });

  it('creates accounts and keys, lists them without the secret, and revokes them', () => {
    const created = sibyl('accounts', 'create', '--email', 'ana@example.com');
    assert.equal(created.code, 0, created.err);
    const account = JSON.parse(created.out);
    assert.match(account.apiKey, /^sk_/);
    const key = sibyl('keys', 'create', '--account', 'ana@example.com', '--label', 'ci');
    assert.equal(key.code, 0, key.err);
    const { keyId, apiKey } = JSON.parse(key.out);
    const list = sibyl('keys', 'list', '--account', account.accountId);
    assert.equal(list.code, 0);
    assert.ok(list.out.includes(keyId));
    assert.ok(!list.out.includes(apiKey) && !list.out.includes(account.apiKey), 'secrets are never listed');
    assert.equal(sibyl('keys', 'revoke', keyId).code, 0);
    assert.match(sibyl('keys', 'list').out, /revoked/);
  });

  it('hands out set-password links for the dashboard and moves accounts between plans', () => {
    const created = JSON.parse(sibyl('accounts', 'create', '--email', 'bo@example.com').out);
    assert.match(created.setPasswordLink, /^http:\/\/127\.0\.0\.1:\d+\/reset#token=[\w-]{43}$/);
    const again = sibyl('accounts', 'password-link', '--account', 'bo@example.com');
    assert.equal(again.code, 0, again.err);
    assert.notEqual(again.out.trim(), created.setPasswordLink, 'each link is new');
    assert.equal(sibyl('accounts', 'plan', 'unlimited', '--account', 'bo@example.com').code, 0);
    assert.match(sibyl('accounts', 'list').out, /bo@example\.com\tunlimited/);
    assert.equal(sibyl('accounts', 'plan', 'gold', '--account', 'bo@example.com').code, 2, 'only known plans');
  });

  it('accounts create says plainly why it refuses an address, and what an account without one is', () => {
    assert.equal(sibyl('accounts', 'create', '--email', 'dup@example.com').code, 0);
    for (const again of ['dup@example.com', 'DUP@Example.com']) {
      const r = sibyl('accounts', 'create', '--email', again);
      assert.equal(r.code, 1, r.out + r.err);
      assert.match(r.err, /an account with the e-mail address dup@example\.com exists already; list the accounts with sibyl accounts list/);
      assert.doesNotMatch(r.err, /constraint/);
    }
    const bad = sibyl('accounts', 'create', '--email', 'bad@@x');
    assert.equal(bad.code, 1, bad.out + bad.err);
    assert.match(bad.err, /--email: 'bad@@x' is not an e-mail address: it needs one @ between a name and a domain/);
    assert.doesNotMatch(bad.err, /Request is invalid/);
    assert.match(sibyl('help').out, /accounts create \[--email E\].*\n.*without --email: an account for API keys only/);
    const keysOnly = sibyl('accounts', 'create');
    assert.equal(keysOnly.code, 0, keysOnly.err);
    assert.equal(JSON.parse(keysOnly.out).email, null);
    assert.match(keysOnly.err, /no e-mail address: it uses its API keys only and cannot sign in to the dashboard/);
  });

  it('a set-password link says which address it starts with and how to change it', () => {
    const guessed = sibyl('accounts', 'create', '--email', 'link@example.com');
    assert.equal(guessed.code, 0, guessed.err);
    assert.match(JSON.parse(guessed.out).setPasswordLink, /^http:\/\/127\.0\.0\.1:8080\/reset#token=/);
    assert.match(guessed.err, /The link starts with http:\/\/127\.0\.0\.1:8080, from the default HOST and PORT.*set SIBYL_PUBLIC_URL/);
    const set = spawnSync(process.execPath, [CLI, 'accounts', 'password-link', '--account', 'link@example.com'], { env: { ...env, SIBYL_PUBLIC_URL: 'https://sibyl.example.org' }, encoding: 'utf8', timeout: 60000 });
    assert.equal(set.status, 0, set.stderr);
    assert.match(set.stdout, /^https:\/\/sibyl\.example\.org\/reset#token=/);
    assert.equal(set.stderr, '', 'nothing to explain when SIBYL_PUBLIC_URL is set');
  });

  it('a first start on a port in use says how to choose another and creates no account; the next start prints the key', async () => {
    const fresh = { ...env, SIBYL_DATA_DIR: mkdtempSync(join(tmpdir(), 'sibyl-cli-first-')), SIBYL_API_KEY: '' };
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    try {
      const busy = spawnSync(process.execPath, [CLI, 'serve'], { env: { ...fresh, PORT: String(port) }, encoding: 'utf8', timeout: 60000 });
      assert.equal(busy.status, 1, busy.stdout + busy.stderr);
      assert.match(busy.stderr, new RegExp(`port ${port} \\(127\\.0\\.0\\.1\\) is already in use.*choose another port with PORT`));
      assert.doesNotMatch(busy.stdout + busy.stderr, /API key|failed \{/, 'no key printed for a server that did not start, no noise from stopped timers');
      const none = spawnSync(process.execPath, [CLI, 'accounts', 'list'], { env: fresh, encoding: 'utf8', timeout: 60000 });
      assert.equal(none.stdout, '', 'the failed start created no account');
      const server = spawn(process.execPath, [CLI, 'serve'], { env: { ...fresh, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      server.stderr!.on('data', (d) => { err += d; });
      try {
        // The key is for the person at the terminal (stderr, plain text), never in the JSON log on stdout.
        const out = await serving(server);
        for (let i = 0; i < 50 && !/\n {2}sk_\S+\n/.test(err); i++) await new Promise((r) => setTimeout(r, 100)); // stderr is another pipe
        assert.match(err, /Created the first account\. Its API key .*\n\n {2}sk_\S{20,}/s);
        const key = /\n {2}(sk_\S+)/.exec(err)![1]!;
        assert.ok(!out.includes(key), 'the key is not in the log');
        const lines = out.split('\n').filter((l) => l.endsWith('}')).map((l) => JSON.parse(l) as { level: number; msg: string });
        assert.ok(lines.some((l) => l.level === 30 && /^Sibyl listening on http:\/\/127\.0\.0\.1:\d+ \(store: /.test(l.msg)), out);
        assert.ok(lines.some((l) => /its API key was written once to stderr/.test(l.msg)), out);
        assert.ok(!lines.some((l) => /SIBYL_API_KEY/.test(l.msg)), 'no warning about a key nobody set');
      } finally {
        server.kill('SIGTERM');
        await new Promise((r) => server.once('exit', r));
      }
    } finally {
      taken.close();
      rmSync(fresh.SIBYL_DATA_DIR, { recursive: true, force: true });
    }
  });

  it('says plainly that the embedded store is busy while a server runs, and the server accepts CLI-made keys', async () => {
    // SIBYL_API_KEY changed on a store that has accounts: it does nothing, and the start says so.
    assert.equal(sibyl('accounts', 'create').code, 0);
    const server = spawn(process.execPath, [CLI, 'serve'], { env: { ...env, PORT: '0', SIBYL_API_KEY: 'rotated-key-0987654321' }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const out = await serving(server);
      const url = /listening on (\S+)/.exec(out)![1]!;
      const lines = out.split('\n').filter((l) => l.endsWith('}')).map((l) => JSON.parse(l) as { level: number; msg: string });
      const warning = lines.find((l) => l.level === 40 && /SIBYL_API_KEY/.test(l.msg));
      assert.match(warning?.msg ?? out, /SIBYL_API_KEY is set but matches no active key of any account, so it is ignored: it only gives the first account its key.*sibyl keys create/);
      assert.ok(!out.includes('rotated-key-0987654321'), 'the key itself is not logged');
      assert.equal((await fetch(`${url}/v1/data`, { headers: { 'api-key': 'rotated-key-0987654321' } })).status, 401);
      const busy = sibyl('keys', 'list');
      assert.equal(busy.code, 1);
      assert.match(busy.err, /in use by process \d+/);
      const accountKey = JSON.parse(sibyl('accounts', 'list').out || 'null');
      assert.equal(accountKey, null, 'no output while busy');
      const r = await fetch(`${url}/v1/data`, { headers: { 'api-key': 'sk_wrong_key_12345' } });
      assert.equal(r.status, 401);
    } finally {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    assert.equal(sibyl('accounts', 'list').code, 0, 'the store is free again after the server stopped');
  });
});
