/**
 * Responsiveness under bulk work (issue 14): while a 1,000,000 × 10 upload and then a
 * classification session on it run, another client (its own process) reads a small data set
 * over and over; its latencies are printed per phase, with the session's time and peak memory.
 * Goals: poller p99 ≤ 100 ms and max ≤ 500 ms on both stores; the session ≤ 2 min with peak RSS ≤ 1.5 GB.
 */
import { classificationCsv } from './lib/csv-files.js';
import { formatLatencies, Poller } from './lib/poller.js';
import { startBenchServer } from './lib/server.js';
import { runClassification, uploadCsv } from './lib/upload.js';
import type { LoadScenario } from './lib/scenario.js';
import { BENCH_KEY } from './lib/server.js';

const scenario: LoadScenario = {
  name: 'responsiveness',
  description: 'GET /v1/data/small latency while a --rows × 10 upload and a classification session on it run; goals p99 ≤ 100 ms, max ≤ 500 ms',
  async run({ stores, rows, log }) {
    const { file } = await classificationCsv(rows, 10);
    for (const store of stores) {
      const server = await startBenchServer(store);
      try {
        await server.call('PUT', '/v1/data/small', { data: Array.from({ length: 100 }, (_, i) => ({ x: String(i), y: String(i % 7) })) });
        const poller = await Poller.start(server.url, '/v1/data/small?pageSize=100');
        try {
          await new Promise((r) => setTimeout(r, 3000));
          await loopLagMax(server.url);
          log(`${store} idle: ${formatLatencies(await poller.take())}; ${await loopLagMax(server.url)}`);
          const cpu0 = server.cpuSeconds();
          const up = await uploadCsv(server.url, 'big', file);
          if (up.status !== 201) throw new Error(`upload failed: ${up.status}`);
          log(`${store} during the upload (${up.body.rowCount} rows, ${up.seconds.toFixed(1)} s, server ${(server.cpuSeconds() - cpu0).toFixed(1)} CPU s): ${formatLatencies(await poller.take())}; ${await loopLagMax(server.url)}`);
          const cpu1 = server.cpuSeconds();
          const { session, seconds } = await runClassification((m, p, b) => server.call(m, p, b), 'big', 'label');
          const sessionCpu = server.cpuSeconds() - cpu1;
          const lag = await loopLagMax(server.url);
          const poll = await poller.take();
          const debug = (session.messages as { severity: string; message: string }[]).filter((m) => m.severity === 'debug').map((m) => m.message).join(' ');
          log(`${store} during the session (${session.status} in ${seconds.toFixed(1)} s, server ${sessionCpu.toFixed(1)} CPU s): ${formatLatencies(poll)}; ${lag}`);
          log(`${store} session: ${debug}; server peak RSS (whole run) ${server.peakRssMb()} MB`);
          if (session.status !== 'completed') log(`${store} session messages: ${JSON.stringify(session.messages)}`);
          else log(`${store} result pages: ${await resultPageTimes(server.url, session.sessionId)}`);
        } finally {
          await poller.stop();
        }
      } finally {
        await server.stop();
      }
    }
  },
};
export default scenario;

/** Time to read result pages of a big session (paged storage: each read touches one or two stored pages). */
async function resultPageTimes(url: string, id: string): Promise<string> {
  const get = async (path: string, accept = 'application/json') => {
    const t0 = performance.now();
    const res = await fetch(url + path, { headers: { 'api-key': BENCH_KEY, accept } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
    return { ms: performance.now() - t0, body };
  };
  const first = await get(`/v1/sessions/${id}/results?pageSize=1000`);
  const pages = (JSON.parse(first.body) as { totalPages: number }).totalPages;
  const times: number[] = [first.ms];
  for (let k = 1; k < 10; k++) times.push((await get(`/v1/sessions/${id}/results?pageSize=1000&page=${Math.floor((k * pages) / 10)}`)).ms);
  const csv = await get(`/v1/sessions/${id}/results?pageSize=1000&page=${pages - 1}`, 'text/csv');
  const scores = await get(`/v1/sessions/${id}/results/classscores?pageSize=1000&page=${Math.floor(pages / 2)}`);
  times.sort((a, b) => a - b);
  return `${pages} pages; JSON page of 1,000 rows median ${times[5]!.toFixed(0)} ms, max ${times[9]!.toFixed(0)} ms; CSV page ${csv.ms.toFixed(0)} ms; class scores page ${scores.ms.toFixed(0)} ms`;
}

/**
 * The server's longest event-loop delay since the previous scrape (prom-client's lag monitor
 * resets on each): a delay there is time no request could be answered, whatever the database did.
 */
async function loopLagMax(url: string): Promise<string> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = /^sibyl_process_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text);
  return m ? `server event loop max delay ${(Number(m[1]) * 1000).toFixed(0)} ms` : 'server event loop delay not reported';
}
