/**
 * The spec's worked example end to end over HTTP: a cheater-detection data set (one row per player,
 * `PlayerID` key, ~35 ratio features with empty cells, a 0/1 label that depends on the features),
 * a balanced classification session, its results, and predictions for new players.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.js';
import { eventually, startTestServer, type TestServer } from '../support/server.js';

const WEAPONS = ['ak47', 'm4a1', 'awp', 'deagle', 'glock', 'usp', 'p90', 'mp5', 'famas', 'galil', 'sg553', 'aug', 'scout', 'negev', 'nova', 'mag7', 'xm1014', 'p250', 'tec9', 'cz75', 'fiveseven', 'mac10', 'ump45', 'bizon', 'm249', 'sawedoff', 'g3sg1', 'scar20', 'mp7', 'mp9'];

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** Cheaters aim better, hit more heads and win more; honest players overlap with them (noise). */
export function cheaterRecords(n: number, seed: number, firstId = 76561198000000000): Record<string, string>[] {
  const rnd = random(seed);
  const rows: Record<string, string>[] = [];
  for (let i = 0; i < n; i++) {
    const cheater = rnd() < 0.5;
    const skill = rnd();
    const edge = cheater ? 0.12 : 0;
    const row: Record<string, string> = { PlayerID: String(firstId + i) };
    row.total_accuracy = (0.15 + 0.1 * skill + edge + 0.08 * rnd()).toFixed(4);
    row.headshot_ratio = (0.2 + 0.15 * skill + (cheater ? 0.15 : 0) + 0.15 * rnd()).toFixed(4);
    row.kill_to_death_ratio = (0.6 + skill + (cheater ? 0.5 : 0) + 0.6 * rnd()).toFixed(3);
    row.win_ratio = (0.35 + 0.2 * skill + (cheater ? 0.05 : 0) + 0.1 * rnd()).toFixed(3);
    row.total_games_owned = String(1 + Math.floor(rnd() * 60));
    for (const w of WEAPONS) row[`accuracy_${w}`] = rnd() < 0.3 ? '' : (0.1 + 0.2 * skill + edge * rnd() * 2 + 0.1 * rnd()).toFixed(4);
    row.cheater = cheater ? '1' : '0';
    rows.push(row);
  }
  return rows;
}

function toCsv(rows: Record<string, string>[]): string {
  const cols = Object.keys(rows[0]!);
  return [cols.join(','), ...rows.map((r) => cols.map((c) => r[c]).join(','))].join('\n') + '\n';
}

for (const backend of await backends()) {
  describe(`the worked example: cheater detection (${backend})`, () => {
    let s: TestServer;
    before(async () => { s = await startTestServer(backend); });
    after(async () => { await s.close(); });

    it('trains a balanced classifier, reports test metrics better than chance, and predicts new players with class scores', async () => {
      const upload = await s.call('PUT', '/v1/data/cheaters', { body: toCsv(cheaterRecords(1500, 7)), headers: { 'content-type': 'text/csv' } });
      assert.equal(upload.status, 201);
      const created = await s.call('POST', '/v1/sessions/model', {
        json: { dataSourceName: 'cheaters', targetColumn: 'cheater', predictionDomain: 'classification', columns: { PlayerID: { role: 'key' }, cheater: { dataType: 'string' } }, extraParameters: { balance: true } },
      });
      assert.equal(created.status, 200, created.text);
      assert.equal(created.json.name, 'Classification on cheaters');
      const id = created.json.sessionId;
      const done = await eventually(async () => {
        const r = await s.call('GET', `/v1/sessions/${id}`);
        return r.json.status === 'completed' || r.json.status === 'failed' ? r.json : undefined;
      }, 120_000, 200);
      assert.equal(done.status, 'completed', JSON.stringify(done.messages));
      assert.match(done.modelId, /^[0-9a-f-]{36}$/);
      assert.ok(done.algorithm.key, 'the champion algorithm is named');

      const results = await s.call('GET', `/v1/sessions/${id}/results?pageSize=1000`);
      const m = results.json.metrics;
      assert.ok(m.accuracy > 0.75, `accuracy ${m.accuracy}`);
      assert.ok(m.rocAreaUnderCurve > 0.8, `AUC ${m.rocAreaUnderCurve}`);
      assert.ok(m.matthewsCorrelationCoefficient > 0.5, `MCC ${m.matthewsCorrelationCoefficient}`);
      assert.equal(results.json.totalCount, 300, '20 % of 1,500 rows are held back for the test');
      const row = results.json.data[0];
      assert.ok(['0', '1'].includes(row.cheater) && ['0', '1'].includes(row['cheater:actual']));
      assert.equal(typeof row.accuracy_awp, 'string');
      assert.ok('PlayerID' in row, 'the key is echoed');

      const matrix = await s.call('GET', `/v1/sessions/${id}/results/confusionmatrix`);
      assert.deepEqual(matrix.json.classes, ['0', '1']);
      const cells = matrix.json.confusionMatrix as number[][];
      assert.equal(cells.flat().reduce((a, b) => a + b, 0), 300);
      assert.equal((cells[0]![0]! + cells[1]![1]!) / 300, m.accuracy, 'the matrix agrees with the accuracy');

      const importance = await s.call('GET', `/v1/sessions/${id}/results/featureImportance`);
      assert.equal(importance.json.supportsFeatureImportance, true);
      const ranked = Object.keys(importance.json.featureImportance);
      assert.ok(ranked.slice(0, 5).some((f) => ['total_accuracy', 'headshot_ratio', 'kill_to_death_ratio'].includes(f)), `top features ${ranked.slice(0, 5)}`);
      assert.ok(!ranked.includes('PlayerID'), 'the key is no feature');

      const fresh = cheaterRecords(200, 99, 76561199000000000);
      const predicted = await s.call('POST', `/v1/models/${done.modelId}/predict`, {
        json: { data: fresh.map(({ cheater: _label, ...features }) => features), extraParameters: { includeClassScores: true } },
      });
      assert.equal(predicted.status, 200, predicted.text);
      assert.equal(predicted.json.modelId, done.modelId);
      assert.equal(predicted.json.data.length, 200);
      let correct = 0;
      predicted.json.data.forEach((p: Record<string, string>, i: number) => {
        assert.equal(p.PlayerID, fresh[i]!.PlayerID);
        const s0 = Number(p['cheater:0']);
        const s1 = Number(p['cheater:1']);
        assert.equal(p.cheater, s1 > s0 ? '1' : '0', 'the class is the higher score');
        if (p.cheater === fresh[i]!.cheater) correct++;
      });
      assert.ok(correct / 200 > 0.75, `accuracy on new players ${correct / 200}`);
    });
  });
}
