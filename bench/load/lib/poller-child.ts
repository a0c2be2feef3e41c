/** The polling client of bench:load (see poller.ts): GET url+path in a loop, report latencies when asked. */
const [url, path, pauseArg, key] = process.argv.slice(2) as [string, string, string, string];
const pauseMs = Number(pauseArg);
let latencies: number[] = [];
let errors = 0;
let stopped = false;

process.on('message', (m) => {
  if (m === 'take') {
    const sorted = latencies.sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;
    process.send!({ count: sorted.length, errors, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? NaN });
    latencies = [];
    errors = 0;
  } else if (m === 'stop') {
    stopped = true;
  }
});

process.send!('ready');
while (!stopped) {
  const t0 = performance.now();
  try {
    const res = await fetch(url + path, { headers: { 'api-key': key } });
    await res.arrayBuffer();
    if (res.status !== 200) errors++;
  } catch {
    errors++;
  }
  latencies.push(performance.now() - t0);
  await new Promise((r) => setTimeout(r, pauseMs));
}
process.exit(0);
