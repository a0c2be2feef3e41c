import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sessionEndedEmail } from '../../src/notify/session-email.js';

function sessionJson(over: Record<string, unknown>): string {
  return JSON.stringify({
    sessionId: '8a1d2f4e-0b6c-4c1e-9d59-3c2f1f6f2a10', status: 'completed', predictionDomain: 'classification',
    dataSourceName: 'cheaters', name: 'Classification on cheaters', messages: [],
    links: [{ rel: 'results', href: 'http://sibyl.example/v1/sessions/8a1d2f4e-0b6c-4c1e-9d59-3c2f1f6f2a10/results' }],
    ...over,
  });
}

describe('the e-mail announcing a model session', () => {
  it('names the session, data set, domain and the headline metric of each domain', () => {
    const cases: [string, Record<string, number>, string][] = [
      ['classification', { macroAverageF1Score: 0.8734567, accuracy: 0.9 }, 'macroAverageF1Score: 0.873457'],
      ['regression', { rootMeanSquareError: 12.5, meanAbsoluteError: 9 }, 'rootMeanSquareError: 12.5'],
      ['anomalies', { percentAnomalies: 0.0123 }, 'percentAnomalies: 0.0123'],
    ];
    for (const [domain, metrics, line] of cases) {
      const mail = sessionEndedEmail('owner@example.test', sessionJson({ predictionDomain: domain }), metrics);
      assert.equal(mail.to, 'owner@example.test');
      assert.equal(mail.subject, `Sibyl: ${domain} session 8a1d2f4e-0b6c-4c1e-9d59-3c2f1f6f2a10 on cheaters completed`);
      assert.ok(mail.text.split('\n').includes(line), `${domain}: ${mail.text}`);
      assert.match(mail.text, /^Data set: cheaters$/m);
      assert.match(mail.text, /^Results: http:\/\/sibyl\.example\/v1\/sessions\/8a1d2f4e-[^/]+\/results$/m);
    }
  });

  it('gives the error of a failed session instead of a metric', () => {
    const mail = sessionEndedEmail('owner@example.test', sessionJson({
      status: 'failed', messages: [{ severity: 'warning', message: 'few rows' }, { severity: 'error', message: 'The target column has one value.' }],
    }), undefined);
    assert.match(mail.subject, / failed$/);
    assert.match(mail.text, /^Error: The target column has one value\.$/m);
    assert.doesNotMatch(mail.text, /few rows|macroAverageF1Score/);
  });
});
