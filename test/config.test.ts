/**
 * Wrong settings stop the start: through the real CLI (`sibyl serve` / `sibyl worker` as a process),
 * the message names the variable, what is wrong with its value and the rule; nothing is started or stored.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../src/config.js';

const CLI = join(process.cwd(), 'dist/src/cli.js');
const scratch = mkdtempSync(join(tmpdir(), 'sibyl-config-'));

/** Runs the CLI with only these settings (and PATH); the data dir is one that does not exist yet. */
function start(command: string, settings: Record<string, string>) {
  const dataDir = join(scratch, `data-${Math.random().toString(36).slice(2)}`);
  const r = spawnSync(process.execPath, [CLI, command], {
    env: { PATH: process.env.PATH ?? '', SIBYL_DATA_DIR: dataDir, PORT: '0', SIBYL_LOG_LEVEL: 'warn', ...settings },
    encoding: 'utf8', timeout: 30000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr, dataDirCreated: existsSync(dataDir) };
}

describe('start-up settings', () => {
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('a too-short SIBYL_API_KEY stops `sibyl serve` with the variable and the rule, without showing the key', () => {
    const r = start('serve', { SIBYL_API_KEY: 'abc12' });
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.err, /SIBYL_API_KEY is 5 characters long: an API key needs at least 16 characters \(a shorter one can be guessed/);
    assert.doesNotMatch(r.err, /abc12/, 'the secret is not repeated');
    assert.doesNotMatch(r.err, /Request is invalid/);
    assert.doesNotMatch(r.out, /listening/);
    assert.equal(r.dataDirCreated, false, 'nothing is stored before the settings are checked');
  });

  it('every wrong setting is listed at once, each naming its variable, value and rule (sibyl worker too)', () => {
    const r = start('worker', {
      PORT: '80a', SIBYL_WORKERS: '0', SIBYL_LEASE_MS: '10', SIBYL_WRITER_LEASE_MS: '5', SIBYL_MAX_JSON_BYTES: '-1', SIBYL_LOG_LEVEL: 'loud',
      DATABASE_URL: 'mysql://db/sibyl', SIBYL_PUBLIC_URL: 'sibyl.example.org', SIBYL_ALLOW_PRIVATE_HOSTS: 'http://10.0.0.1',
      SIBYL_SMTP_URL: 'http://mail.example.org', SIBYL_EMBEDDED_TEMPLATE: scratch,
    });
    const onFile = start('serve', { SIBYL_DATA_DIR: CLI });
    assert.equal(onFile.code, 1, onFile.out + onFile.err);
    assert.match(onFile.err, /SIBYL_DATA_DIR=".*cli\.js" is a file, not a directory: where the embedded store lives/);
    assert.equal(r.code, 1, r.out + r.err);
    for (const expected of [
      /PORT="80a" is not a whole number: a TCP port from 0 to 65535/,
      /SIBYL_WORKERS="0" is out of range: .*at least 1/,
      /SIBYL_LEASE_MS="10" is out of range: milliseconds, at least 1000/,
      /SIBYL_WRITER_LEASE_MS="5" is out of range: milliseconds, at least 1000/,
      /SIBYL_MAX_JSON_BYTES="-1" is not a whole number: a size in bytes/,
      /SIBYL_LOG_LEVEL="loud" is not a log level: use one of silent, .*debug/,
      /DATABASE_URL uses the mysql scheme: expected postgres:\/\//,
      /SIBYL_PUBLIC_URL="sibyl.example.org" is not an http\(s\) URL/,
      /SIBYL_ALLOW_PRIVATE_HOSTS: "http:\/\/10.0.0.1" is not a host name or IP address/,
      /SIBYL_SMTP_URL must use smtp: or smtps:, not http:/,
      /SIBYL_EMBEDDED_TEMPLATE=".*" holds no initialised embedded cluster/,
    ]) assert.match(r.err, expected);
    assert.doesNotMatch(r.out, /worker running/);
  });

  it('the request time limits: whole numbers in range, and the idle limit no longer than the whole-request limit', () => {
    const r = start('serve', { SIBYL_REQUEST_TIMEOUT_MS: '60000', SIBYL_IDLE_TIMEOUT_MS: '120000' });
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.err, /SIBYL_IDLE_TIMEOUT_MS=120000 is longer than SIBYL_REQUEST_TIMEOUT_MS=60000: .*the idle limit must be at most the request limit/);
    assert.throws(() => loadConfig({ SIBYL_IDLE_TIMEOUT_MS: '50', SIBYL_REQUEST_TIMEOUT_MS: '2 min' }), (e: ConfigError) =>
      /SIBYL_IDLE_TIMEOUT_MS="50" is out of range: milliseconds, at least 100/.test(e.message) && /SIBYL_REQUEST_TIMEOUT_MS="2 min" is not a whole number/.test(e.message));
    const defaults = loadConfig({});
    assert.deepEqual([defaults.requestTimeoutMs, defaults.idleTimeoutMs], [3_600_000, 120_000]);
  });

  it('the connections per client address: a whole number, 0 for no limit, 1000 unless set', () => {
    assert.equal(loadConfig({}).maxConnectionsPerAddress, 1000);
    assert.equal(loadConfig({ SIBYL_MAX_CONNECTIONS_PER_ADDRESS: '0' }).maxConnectionsPerAddress, 0);
    assert.throws(() => loadConfig({ SIBYL_MAX_CONNECTIONS_PER_ADDRESS: '-5' }), (e: unknown) =>
      e instanceof ConfigError && /SIBYL_MAX_CONNECTIONS_PER_ADDRESS="-5" is not a whole number: how many connections one client address may hold open at once, 0 for no limit/.test(e.message));
  });

  it('a SIBYL_ variable that is not a setting is reported with the setting it may be a misspelling of; the scripts\' own variables are not', () => {
    const config = loadConfig({ SIBYL_WORKER: '2', SIBYL_MAX_BODY_BYTES: '10', SIBYL_COLOUR: 'blue', SIBYL_TEST_CONCURRENCY: '2', SIBYL_FUZZ_SEED: '1', SIBYL_WORKERS: '3' });
    assert.equal(config.workerConcurrency, 3);
    assert.deepEqual(config.warnings.map((w) => /^warning: (\S+) is not a setting and does nothing(?: \(did you mean (\S+)\?\))?;/.exec(w)?.slice(1, 3)), [
      ['SIBYL_COLOUR', undefined],
      ['SIBYL_MAX_BODY_BYTES', 'SIBYL_MAX_JSON_BYTES'],
      ['SIBYL_WORKER', 'SIBYL_WORKERS'],
    ]);
    assert.deepEqual(loadConfig({ SIBYL_WORKERS: '3', SIBYL_ALLOW_PRIVATE_HOSTS: 'localhost' }).warnings, []);
    // Beside a wrong setting, the start's message shows them too: a misspelt name may be why a default was used.
    const r = start('serve', { SIBYL_LEASE_MS: '10', SIBYL_SHUTDOWN_GRACE: '5000' });
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.err, /SIBYL_LEASE_MS="10" is out of range/);
    assert.match(r.err, /SIBYL_SHUTDOWN_GRACE is not a setting and does nothing \(did you mean SIBYL_SHUTDOWN_GRACE_MS\?\)/);
  });

  it('a DATABASE_URL that cannot be reached stops the start naming the variable and the server, not the password', () => {
    const r = start('serve', { DATABASE_URL: 'postgres://sibyl:secretpw@127.0.0.1:1/sibyl' });
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.err, /cannot open the PostgreSQL database of DATABASE_URL \(127\.0\.0\.1:1\/sibyl\): connect ECONNREFUSED/);
    assert.doesNotMatch(r.err, /secretpw/);
    assert.doesNotMatch(r.out, /listening/);
  });

  it('a HOST that does not resolve or is not this machine\'s stops the start naming HOST, before the store is opened', () => {
    for (const [host, why] of [['not-a-host.invalid', /is neither an IP address nor a host name that resolves \((ENOTFOUND|EAI_AGAIN)\)/], ['999.1.1.1', /is neither an IP address nor a host name that resolves \((ENOTFOUND|EAI_AGAIN)\)/], ['192.0.2.1', /is not an address of this machine \(EADDRNOTAVAIL\)/]] as const) {
      const r = start('serve', { HOST: host });
      assert.equal(r.code, 1, r.out + r.err);
      assert.match(r.err, new RegExp(`HOST="${host.replace(/\./g, '\\.')}" ${why.source}: the interface to listen on`));
      assert.equal(r.dataDirCreated, false, 'nothing is stored for a start that cannot listen');
    }
  });

  it('a SIBYL_DATA_DIR that cannot be made stops the start naming the variable, the value and why (and does not hang on /proc)', () => {
    const underFile = start('serve', { SIBYL_DATA_DIR: join(CLI, 'sub') });
    assert.equal(underFile.code, 1, underFile.out + underFile.err);
    assert.match(underFile.err, /SIBYL_DATA_DIR=".*cli\.js\/sub" is under .*cli\.js, which is a file, not a directory: where the embedded store lives/);
    for (const dir of ['/proc/sibyl-config-test', '/sys/sibyl-config-test']) {
      const r = start('worker', { SIBYL_DATA_DIR: dir });
      assert.equal(r.code, 1, `${dir}: ${r.out} ${r.err}`);
      assert.match(r.err, new RegExp(`SIBYL_DATA_DIR="${dir}" cannot be created: making ${dir} failed with E[A-Z]+ \\(.+\\): where the embedded store lives`));
    }
  });

  it('unset and empty mean the default; values at the limits are accepted', () => {
    const defaults = loadConfig({ PORT: '', SIBYL_API_KEY: '', DATABASE_URL: '' });
    assert.equal(defaults.port, 8080);
    assert.equal(defaults.apiKey, undefined);
    assert.equal(defaults.leaseMs, 30000);
    assert.equal(defaults.logLevel, 'info');
    const edge = loadConfig({ PORT: '65535', SIBYL_API_KEY: 'k'.repeat(16), SIBYL_WORKERS: '1', SIBYL_LEASE_MS: '1000', DATABASE_URL: 'postgresql://u:p@h/db', SIBYL_SMTP_URL: 'smtps://u:p@mail.example.org?from=a%40b.org' });
    assert.deepEqual([edge.port, edge.apiKey, edge.workerConcurrency, edge.leaseMs], [65535, 'k'.repeat(16), 1, 1000]);
    assert.throws(() => loadConfig({ PORT: '65536' }), (e: unknown) => e instanceof ConfigError && /PORT="65536" is out of range/.test(e.message));
    assert.throws(() => loadConfig({ SIBYL_API_KEY: 'sk_with a space inside' }), /SIBYL_API_KEY contains spaces/);
    assert.throws(() => loadConfig({ DATABASE_URL: 'postgres://u:secret@host:port/db' }), (e: unknown) => e instanceof ConfigError && !e.message.includes('secret'));
  });

  it('reads the dashboard settings: sign-up switch, admin address, community plan', () => {
    const d = loadConfig({});
    assert.deepEqual([d.signupOpen, d.adminEmail, d.communityPlan.dataSets, d.communityPlan.predictionsPerDay], [true, undefined, 1000, 1_000_000]);
    const set = loadConfig({ SIBYL_SIGNUP: 'Closed', SIBYL_ADMIN_EMAIL: ' Op@Example.org ', SIBYL_PLAN_SESSIONS_PER_MONTH: '0', SIBYL_PLAN_UPLOAD_BYTES: '1' });
    assert.deepEqual([set.signupOpen, set.adminEmail, set.communityPlan.sessionsPerMonth, set.communityPlan.uploadBytes], [false, 'op@example.org', 0, 1]);
    assert.throws(() => loadConfig({ SIBYL_SIGNUP: 'maybe', SIBYL_ADMIN_EMAIL: 'nobody', SIBYL_PLAN_DATASETS: '-1', SIBYL_PLAN_UPLOAD_BYTES: '0' }), (e: unknown) =>
      e instanceof ConfigError && e.problems.length === 4 && /SIBYL_SIGNUP="maybe" is neither open nor closed/.test(e.message) && /SIBYL_ADMIN_EMAIL="nobody" is not an e-mail address/.test(e.message));
  });
});
