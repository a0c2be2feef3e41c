import type { MailMessage } from './mailer.js';

/** The one number a reader wants first from each kind of model (compat-notes §4: metric names). */
const HEADLINE_METRIC: Record<string, string> = {
  classification: 'macroAverageF1Score',
  regression: 'rootMeanSquareError',
  anomalies: 'percentAnomalies',
};

/** The fields of the session resource (sessionView) the message uses. */
interface SessionJson {
  sessionId: string;
  status: string;
  predictionDomain?: string;
  dataSourceName?: string;
  name?: string | null;
  messages?: { severity?: string; message?: string }[];
  links?: { rel: string; href: string }[];
}

/** The e-mail announcing that a model session ended; `metrics` are its stored results, if any. */
export function sessionEndedEmail(to: string, sessionJson: string, metrics: Record<string, unknown> | undefined): MailMessage {
  const s = JSON.parse(sessionJson) as SessionJson;
  const domain = s.predictionDomain ?? 'model';
  const dataset = s.dataSourceName ?? '';
  const lines = [
    `Session: ${s.sessionId}`,
    `Status: ${s.status}`,
    `Data set: ${dataset}`,
    `Prediction domain: ${domain}`,
  ];
  if (s.name) lines.push(`Name: ${s.name}`);
  const metric = HEADLINE_METRIC[domain];
  if (s.status === 'completed' && metric) {
    const value = metrics?.[metric];
    lines.push(`${metric}: ${typeof value === 'number' ? formatNumber(value) : 'not available'}`);
  }
  for (const m of s.messages ?? []) if (m.severity === 'error' && m.message) lines.push(`Error: ${m.message}`);
  const results = s.links?.find((l) => l.rel === 'results');
  if (results) lines.push('', `Results: ${results.href}`);
  return {
    to,
    subject: `Sibyl: ${domain} session ${s.sessionId} on ${dataset} ${s.status}`,
    text: `${lines.join('\n')}\n`,
  };
}

function formatNumber(v: number): string {
  return String(Number(v.toPrecision(6)));
}
