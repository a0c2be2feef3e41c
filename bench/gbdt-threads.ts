/**
 * One GBDT fit on 1 and 2 threads, measured so that it means something on a shared machine: CPU per fit
 * (all threads, and the main thread alone from /proc), hand-offs to the helper per tree, and a
 * critical-path estimate of the 2-thread fit from the main thread's own timeline: its serial work, its
 * share of each shared job, its wait for the helper, and the helper's busy time per job
 * (feature-team.ts teamStats; a multiclass round's class job counts as one shared job, and the data
 * preparation by column ranges as one more). Shared jobs are cut into blocks that either thread takes, so
 * the main thread's share is the blocks it took, and grows when the helper is not running. "free
 * hand-offs" = serial + (main share of block jobs × blocks / blocks the main thread took) / 2 (all blocks
 * at the main thread's pace, split evenly) + Σ max(main share, helper busy) over class jobs + Σ over leaf
 * splits handed ahead of their length beyond the main thread's work between posting one and needing it
 * (a split the main thread did itself, no helper having taken it, counts so too, not as serial; the main
 * thread's share of a block job started while a helper was splitting ahead counts as serial): the wall
 * time the fit would take if every hand-off cost nothing and the helper had a core of its own, scaled to
 * CPU seconds by the main thread's CPU per second awake (the machine's load stretches every interval);
 * its ratio to the 1-thread fit's main-thread CPU is the speed-up a quiet 2-core machine can approach. Wall-clock
 * speed-ups are printed too, alternating 1- and 2-thread fits, with the load average beside them.
 * Usage: npm run bench:gbdt-threads -- [--only letter_recognition,synthetic] [--repeats 3] [--tune '{…}'] [--synthetic-rows n]
 * --synthetic-rows sets the synthetic set's rows (default 40,000; its name shows the size): a large fit,
 * e.g. 400000, splits its work between threads differently from the default one.
 * --tune overrides the hand-off rules of team-tuning.ts for the run; the rules before them were
 * '{"spins":200,"soloWork":32768,"countScans":false,"parallelRows":8192}' (spins then fixed, not adaptive);
 * '{"growClasses":false}' shares a multiclass round's trees leaf job by leaf job, as before class jobs.
 * The last lines summarise each case: wall speed-up, the estimate, and that the models were identical
 * (a 2-thread model that differs from the 1-thread one stops the benchmark with an error).
 * The reference beside them, when a Python with lightgbm and pandas is there ($SIBYL_PYTHON, e.g.
 * /work/venv/bin/python, or .venv/bin/python): LightGBM's own wall speed-up at num_threads=2 over 1 on the
 * same rows and settings, the same number of pairs alternating 1 and 2 threads after a warm-up fit each.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Case, benchCase, syntheticCase, syntheticRowsArg } from './lib/gbdt-cases.js';
import { LIGHTGBM_MODULES, pythonWithLightgbm, runLightgbm } from './lib/lightgbm-run.js';
import { noPython } from './lib/python.js';
import { GbdtLearner } from '../src/ml/tabular/gbdt/index.js';
import { teamStats, teamTuning } from '../src/ml/tabular/gbdt/team-tuning.js';

interface Run {
  wall: number;
  cpu: number;
  mainCpu: number;
  trees: number;
  syncs: number;
  leafSyncs: number;
  rowSyncs: number;
  soloJobs: number;
  classSyncs: number;
  serial: number;
  mainShare: number;
  wait: number;
  sleep: number;
  helperBusy: number;
  blocks: number;
  helperBlocks: number;
  freeHandoffs: number;
  splitsAhead: number;
  splitsAheadByMain: number;
  splitWait: number;
  splitBusy: number;
  model: string;
}

/** CPU seconds of this process's main thread (utime + stime of task pid, in clock ticks of 10 ms). */
function mainThreadCpu(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function run(c: Case, threads: number): Run {
  const learner = new GbdtLearner({ nEstimators: c.rounds, numLeaves: 31, learningRate: 0.1 }, { threads });
  teamStats.reset();
  const m0 = mainThreadCpu();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const model = learner.fit(c.frame, c.y, c.task, { seed: 0 });
  const wall = (performance.now() - t0) / 1000;
  const cu = process.cpuUsage(c0);
  const mainCpu = mainThreadCpu() - m0;
  const s = teamStats;
  // Main-thread wall time in shared jobs and in the parallel data preparation; the rest ran serially.
  // Splits handed ahead: the main thread's waits for them and its time on those it did itself are theirs.
  const jobs = (s.mainShareMs + s.waitMs + s.prepareWallMs + s.splitWaitMs + s.splitByMainMs) / 1000;
  const blockWork = s.blocks > s.helperBlocks ? (s.blockShareMs * s.blocks) / (s.blocks - s.helperBlocks) : 0;
  const critical = (blockWork / 2 + s.jobCriticalMs + s.prepareCriticalMs + s.splitCriticalMs) / 1000;
  return {
    wall, cpu: (cu.user + cu.system) / 1e6, mainCpu, trees: s.trees, syncs: s.syncs, leafSyncs: s.leafSyncs, rowSyncs: s.rowSyncs,
    soloJobs: s.soloJobs, classSyncs: s.classSyncs, blocks: s.blocks, helperBlocks: s.helperBlocks, serial: wall - jobs, mainShare: s.mainShareMs / 1000, wait: s.waitMs / 1000, sleep: s.sleepMs / 1000, helperBusy: s.helperBusyMs / 1000,
    // Wall time on a loaded machine stretches every interval; scaled by the main thread's CPU per second awake.
    splitsAhead: s.splitsAhead, splitsAheadByMain: s.splitsAheadByMain, splitWait: s.splitWaitMs / 1000, splitBusy: s.splitBusyMs / 1000,
    freeHandoffs: ((wall - jobs + critical) * mainCpu) / (wall - s.sleepMs / 1000), model: JSON.stringify(model.toJSON()),
  };
}

/**
 * A work-balance estimate from one 1-thread fit's CPU by phase (teamStats.phaseCpu): gradients split in
 * two row ranges, each multiclass round's trees taken one by one by whichever of two threads is free
 * (as growClasses does), the rest serial. One-score fits share each tree leaf job by leaf job instead;
 * for them the figure is the bound with both halves perfectly even.
 */
function workBalance(c: Case): string {
  const learner = new GbdtLearner({ nEstimators: c.rounds, numLeaves: 31, learningRate: 0.1 }, { threads: 1 });
  teamStats.reset();
  teamStats.phaseCpu = true;
  const c0 = process.cpuUsage();
  try {
    learner.fit(c.frame, c.y, c.task, { seed: 0 });
  } finally {
    teamStats.phaseCpu = false;
  }
  const cu = process.cpuUsage(c0);
  const total = (cu.user + cu.system) / 1e6;
  const grad = teamStats.gradientCpuUs / 1e6;
  const rounds = teamStats.roundTreeCpuUs;
  const trees = rounds.reduce((s, r) => s + r.reduce((a, b) => a + b, 0), 0) / 1e6;
  const rest = total - grad - trees;
  const whole = rounds.every((r) => r.length >= 2);
  let treePath = trees / 2;
  if (whole) {
    treePath = 0;
    for (const r of rounds) {
      const lanes = [0, 0];
      for (const t of r) lanes[lanes[0] <= lanes[1] ? 0 : 1] += t;
      treePath += Math.max(...lanes) / 1e6;
    }
  }
  const two = rest + grad / 2 + treePath;
  const f2 = (x: number) => x.toFixed(2);
  return (
    `1-thread CPU by phase: gradients ${f2(grad)} s, trees ${f2(trees)} s, the rest ${f2(rest)} s (of ${f2(total)}); ` +
    `2 threads: ${f2(two)} s on the longer thread, ${whole ? '' : '≤ '}${f2(total / two)}×` +
    (whole ? ' (trees of a round on whichever thread is free)' : ' (tree work split perfectly evenly: a bound)')
  );
}

/**
 * After LIGHTGBM_PREAMBLE: LightGBM's own wall speed-up at num_threads=2 over 1 at our settings (rounds:
 * argv 3), a warm-up fit each, then repeats (argv 4) pairs alternating 1 and 2 threads, as ours are run.
 */
const LIGHTGBM_THREADS_SCRIPT = `
rounds, repeats = int(sys.argv[3]), int(sys.argv[4])
def fit(threads):
    m = Model(n_estimators=rounds, num_leaves=31, learning_rate=0.1, random_state=0, num_threads=threads, verbose=-1)
    t0 = time.perf_counter()
    m.fit(df, y)
    return time.perf_counter() - t0
fit(1)
fit(2)
pairs = []
for _ in range(repeats):
    one = fit(1)
    two = fit(2)
    pairs.append({'one': one, 'two': two})
print(json.dumps(pairs))
`;

interface LightgbmPair {
  one: number;
  two: number;
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function main(): void {
  const onlyArg = process.argv.indexOf('--only');
  const only = onlyArg > 0 ? new Set(process.argv[onlyArg + 1].split(',')) : null;
  const repArg = process.argv.indexOf('--repeats');
  const repeats = repArg > 0 ? Number(process.argv[repArg + 1]) : 3;
  const syntheticRows = syntheticRowsArg(process.argv);
  const makers: [string, () => Case][] = [
    ['synthetic', () => syntheticCase(syntheticRows)],
    ['letter_recognition', () => benchCase('letter_recognition', 'classification', 100)],
    ['satellite', () => benchCase('satellite', 'classification', 100)],
    ['credit_data', () => benchCase('credit_data', 'classification', 100)],
  ];
  const tuneArg = process.argv.indexOf('--tune');
  if (tuneArg > 0) Object.assign(teamTuning, JSON.parse(process.argv[tuneArg + 1]));
  console.log(`hand-off rules (team-tuning.ts): ${JSON.stringify(teamTuning)}`);
  const f2 = (x: number) => x.toFixed(2);
  const summary: string[] = [];
  const python = pythonWithLightgbm();
  if (!python) console.log(noPython(LIGHTGBM_MODULES, 'LightGBM\'s 2-thread speed-up left out'));
  const dir = mkdtempSync(join(tmpdir(), 'gbdt-threads-'));
  try {
    for (const [key, make] of makers) {
      if (only && !only.has(key)) continue;
      const c = make();
      // Warm-up (JIT, helper threads started), then alternate so that both see the same load.
      run(c, 1);
      run(c, 2);
      const ones: Run[] = [];
      const twos: Run[] = [];
      const speedups: string[] = [];
      for (let i = 0; i < repeats; i++) {
        const a = run(c, 1);
        const b = run(c, 2);
        ones.push(a);
        twos.push(b);
        speedups.push(`${f2(a.wall / b.wall)}× (load ${f2(loadavg()[0])})`);
        if (a.model !== b.model) throw new Error(`${c.name}: the 2-thread model differs from the 1-thread model`);
      }
      // Medians over the repeats; CPU figures are the steadier ones on a shared machine.
      const m = (rs: Run[], k: keyof Omit<Run, 'model'>) => median(rs.map((r) => r[k]));
      const balance = workBalance(c);
      const t = twos[0].trees;
      console.log(`${c.name}: ${c.frame.nRows} rows × ${c.frame.columns.length} cols, ${c.rounds} rounds, ${t} trees; models byte-identical`);
      console.log(`  1 thread : cpu ${f2(m(ones, 'cpu'))} s (main thread ${f2(m(ones, 'mainCpu'))} s), wall ${f2(m(ones, 'wall'))} s`);
      console.log(
        `  2 threads: cpu ${f2(m(twos, 'cpu'))} s (main thread ${f2(m(twos, 'mainCpu'))} s), wall ${f2(m(twos, 'wall'))} s; ` +
          `hand-offs per tree ${f2(m(twos, 'syncs') / t)} (leaf jobs ${f2(m(twos, 'leafSyncs') / t)}, row jobs ${f2(m(twos, 'rowSyncs') / t)}, ` +
          `class jobs ${f2(m(twos, 'classSyncs') / t)}), ` +
          `leaf jobs kept on the main thread per tree ${f2(m(twos, 'soloJobs') / t)}, blocks the helper took ${f2(m(twos, 'helperBlocks') / Math.max(1, m(twos, 'blocks')))} (of ${f2(m(twos, 'blocks') / t)} per tree)`,
      );
      console.log(
        `  2-thread timeline (main thread, wall s): serial ${f2(m(twos, 'serial'))}, share of shared jobs ${f2(m(twos, 'mainShare'))}, ` +
          `wait for helper ${f2(m(twos, 'wait'))} (asleep ${f2(m(twos, 'sleep'))}); helper busy ${f2(m(twos, 'helperBusy'))}; ` +
          `critical path with free hand-offs ${f2(m(twos, 'freeHandoffs'))} CPU s`,
      );
      console.log(
        `  leaf splits handed ahead per tree ${f2(m(twos, 'splitsAhead') / t)} (done by the main thread ${f2(m(twos, 'splitsAheadByMain') / t)}), ` +
          `${f2(m(twos, 'splitBusy'))} s on them; ` +
          `main thread's wait for them ${f2(m(twos, 'splitWait'))} s (in the critical path: their length beyond the main thread's work meanwhile)`,
      );
      console.log(
        `  speed-up estimate (1-thread main CPU / free-hand-off critical path): ${f2(m(ones, 'mainCpu') / m(twos, 'freeHandoffs'))}×; ` +
          `wall speed-ups, alternating runs: ${speedups.join(', ')}`,
      );
      console.log(`  work-balance estimate: ${m(twos, 'syncs') > 0 ? balance : 'none (the fit stays on one thread: below teamTuning.minCellsPerThread)'}`);
      // The reference: LightGBM's own 2-thread speed-up on the same rows and settings, pairs alternating the same way.
      let reference = '';
      if (python) {
        const pairs = runLightgbm<LightgbmPair[]>(python, c, dir, LIGHTGBM_THREADS_SCRIPT, [String(c.rounds), String(repeats)]);
        const ratios = pairs.map((p) => p.one / p.two);
        console.log(
          `  LightGBM num_threads 2 over 1: wall ${f2(median(pairs.map((p) => p.one)))} → ${f2(median(pairs.map((p) => p.two)))} s; ` +
            `speed-ups, alternating runs: ${ratios.map(f2).join('×, ')}× (load ${f2(loadavg()[0])})`,
        );
        reference = `  LightGBM ${f2(median(ratios))}×`;
      }
      const shared = m(twos, 'syncs') > 0;
      summary.push(
        `  ${c.name.padEnd(20)} wall ${f2(median(ones.map((r, i) => r.wall / twos[i].wall)))}×  ` +
          (shared ? `estimate ${f2(m(ones, 'mainCpu') / m(twos, 'freeHandoffs'))}×  ` : 'one thread (below teamTuning.minCellsPerThread)  ') +
          `model bytes 1 vs 2 threads: identical (${repeats} pairs compared)${reference}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `summary, 2 threads over 1 (wall: median of alternating runs, load average now ${f2(loadavg()[0])}; estimate: critical path` +
      `${python ? '; LightGBM: its own wall speed-up at num_threads 2 over 1, median of alternating runs' : ''}):`,
  );
  for (const line of summary) console.log(line);
}

main();
