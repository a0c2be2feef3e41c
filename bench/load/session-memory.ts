/**
 * How a classification session's time and memory grow with rows (issues 12.6 and 14): for each
 * size, a fresh server uploads a rows × columns CSV and runs a classification session; prints the
 * session's time, its peak memory (from its debug message) and the server's peak RSS, then a
 * least-squares line through peak RSS against rows × columns.
 *   npm run bench:load -- session-memory [--sizes 100000,300000,1000000] [--columns 10]
 */
import { classificationCsv } from './lib/csv-files.js';
import { startBenchServer } from './lib/server.js';
import { runClassification, uploadCsv } from './lib/upload.js';
import type { LoadScenario } from './lib/scenario.js';

const scenario: LoadScenario = {
  name: 'session-memory',
  description: 'classification session time and peak memory at several sizes (--sizes, --columns); goal 1M × 10 in ≤ 2 min with peak RSS ≤ 1.5 GB, memory linear in rows × columns',
  async run({ stores, args, log }) {
    const opt = (n: string) => { const i = args.indexOf(n); return i >= 0 ? args[i + 1] : undefined; };
    const sizes = (opt('--sizes') ?? '100000,300000,1000000').split(',').map(Number);
    const columns = Number(opt('--columns') ?? 10);
    for (const store of stores) {
      const points: [number, number][] = [];
      for (const rows of sizes) {
        const { file } = await classificationCsv(rows, columns);
        const server = await startBenchServer(store);
        try {
          const up = await uploadCsv(server.url, 'big', file);
          if (up.status !== 201) throw new Error(`upload failed: ${up.status}`);
          const afterUpload = server.peakRssMb();
          const cpuBefore = server.cpuSeconds();
          const { session, seconds } = await runClassification((m, p, b) => server.call(m, p, b), 'big', 'label');
          const debug = (session.messages as { severity: string; message: string }[]).filter((m) => m.severity === 'debug').map((m) => m.message).join(' ');
          const peak = Number(/Peak memory[^:]*: (\d+) MB/.exec(debug)?.[1] ?? NaN);
          const metrics = session.status === 'completed' ? (await server.call('GET', `/v1/sessions/${session.sessionId}/results?pageSize=1`)).metrics : {};
          points.push([rows * columns, peak]);
          const cpu = server.cpuSeconds() - cpuBefore;
          log(`${store} ${rows} × ${columns}: session ${session.status} in ${seconds.toFixed(1)} s wall, ${cpu.toFixed(1)} CPU s (server, all threads), champion ${session.algorithm?.name ?? '-'}, test accuracy ${metrics.accuracy?.toFixed?.(3) ?? '-'}; session peak RSS ${peak} MB; server peak RSS ${server.peakRssMb()} MB (after the upload ${afterUpload} MB)`);
          log(`  ${debug} ${(session.messages as { message: string }[]).filter((m) => /sample/.test(m.message)).map((m) => m.message).join(' ')}`);
          if (session.status !== 'completed') log(`  messages: ${JSON.stringify(session.messages)}`);
        } finally {
          await server.stop();
        }
      }
      if (points.length >= 2) {
        const n = points.length;
        const mx = points.reduce((a, p) => a + p[0], 0) / n;
        const my = points.reduce((a, p) => a + p[1], 0) / n;
        const slope = points.reduce((a, p) => a + (p[0] - mx) * (p[1] - my), 0) / points.reduce((a, p) => a + (p[0] - mx) ** 2, 0);
        const fit = points.map(([x, y]) => `${x}: ${y} MB (line ${(my + slope * (x - mx)).toFixed(0)})`).join('; ');
        log(`${store} peak RSS ≈ ${(my - slope * mx).toFixed(0)} MB + ${(slope * 1e6).toFixed(0)} MB per million cells; ${fit}`);
      }
    }
  },
};
export default scenario;
