/**
 * Large prediction batches are scored on scoring threads, small ones in the API thread
 * (models-service.ts): the same records get the same answers either way, to the last digit.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

/** Houses: the price follows size, rooms and district, with noise; some values missing. */
function housesCsv(rows: number): string {
  const lines = ['size,rooms,district,price'];
  for (let i = 0; i < rows; i++) {
    const size = 40 + ((i * 37) % 160);
    const rooms = 1 + (i % 5);
    const district = ['north', 'south', 'centre'][i % 3]!;
    const price = size * 3 + rooms * 10 + (district === 'centre' ? 120 : 0) + ((i * 7919) % 41) - 20;
    lines.push(`${i % 17 === 0 ? '' : size},${rooms},${district},${price}`);
  }
  return lines.join('\n') + '\n';
}

async function train(s: TestServer, body: Record<string, unknown>): Promise<string> {
  const r = await s.call('POST', '/v1/sessions/model', { json: body });
  assert.equal(r.status, 200, r.text);
  return (await completedSession(s, r.json.sessionId)).modelId;
}

const records = Array.from({ length: 300 }, (_, i) => ({ size: i % 23 === 0 ? null : 35 + ((i * 53) % 180), rooms: 1 + (i % 6), district: ['north', 'south', 'centre', 'harbour'][i % 4] }));

for (const backend of await backends()) {
  describe(`large predict batches score as small ones do (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      assert.equal((await s.call('PUT', '/v1/data/houses', { body: housesCsv(400), headers: { 'content-type': 'text/csv' } })).status, 201);
    });
    after(async () => { await s.close(); });

    for (const [domain, extra] of [['regression', { predictionIntervals: [0.8] }], ['classification', { includeClassScores: true }]] as const) {
      it(`${domain}: one batch of 300 records answers as 30 batches of 10`, async () => {
        const modelId = await train(s, { dataSourceName: 'houses', predictionDomain: domain, targetColumn: domain === 'regression' ? 'price' : 'district' });
        const predict = async (data: unknown[]) => {
          const r = await s.call('POST', `/v1/models/${modelId}/predict`, { json: { data, extraParameters: extra } });
          assert.equal(r.status, 200, r.text);
          return r.json.data as Record<string, string>[];
        };
        const data = domain === 'classification' ? records.map(({ district: _, ...r }) => r) : records;
        const whole = await predict(data);
        const pieces: Record<string, string>[] = [];
        for (let i = 0; i < data.length; i += 10) pieces.push(...(await predict(data.slice(i, i + 10))));
        assert.equal(whole.length, 300);
        assert.deepEqual(whole, pieces);
        // Predictions vary with the inputs (a model that answers one constant would prove nothing).
        const target = domain === 'regression' ? 'price' : 'district';
        assert.ok(new Set(whole.map((r) => r[target])).size > 1);
      });
    }
  });
}
