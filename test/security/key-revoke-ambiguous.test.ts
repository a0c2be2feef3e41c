/**
 * `sibyl keys revoke PREFIX` revoked every active key listed under that prefix, across accounts:
 * one that more than one key shares is refused, naming how many, and revokes nothing; the key id
 * still revokes one. (Two generated keys share 8 random characters rarely: the shared prefix is
 * written into the store here.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { scratchDataDir } from '../support/scratch-db.js';
import { Db } from '../../src/store/db.js';
import { PgLitePool } from '../../src/store/pglite-pool.js';

const CLI = join(process.cwd(), 'dist/src/cli.js');

describe('sibyl keys revoke by a shared prefix', () => {
  let dataDir = '';
  const sibyl = (...args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, SIBYL_DATA_DIR: dataDir, DATABASE_URL: '', SIBYL_LOG_LEVEL: 'warn' }, encoding: 'utf8', timeout: 60000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

  it('is refused naming how many keys match, and revokes none', async () => {
    const scratch = await scratchDataDir();
    dataDir = scratch.dataDir;
    await scratch.pool.end();
    const accounts = ['one@example.com', 'two@example.com'].map((email) => JSON.parse(sibyl('accounts', 'create', '--email', email).out));
    const db = new Db(await PgLitePool.open(join(dataDir, 'pg')));
    await db.query(`UPDATE api_keys SET prefix = 'samepref'`);
    await db.close();
    const refused = sibyl('keys', 'revoke', 'sk_samepref…');
    assert.equal(refused.code, 1, refused.out + refused.err);
    assert.match(refused.err, /2 active keys are listed as sk_samepref: revoke one by its key id/);
    assert.equal(sibyl('keys', 'list').out.match(/\tactive/g)?.length, 2, 'both keys still work');
    const keyId = sibyl('keys', 'list', '--account', accounts[0].accountId).out.split('\t')[0]!;
    assert.equal(sibyl('keys', 'revoke', keyId).code, 0);
    assert.equal(sibyl('keys', 'list').out.match(/\tactive/g)?.length, 1, 'the id revoked one');
  });
});
