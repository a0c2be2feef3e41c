/**
 * The Python the benchmarks run their reference scripts with (LightGBM, scikit-learn, statsmodels,
 * shap). One lookup for every bench, so that the same setting picks the same interpreter everywhere:
 * $SIBYL_PYTHON when set, else the repository's .venv (README: `python3 -m venv .venv`), else
 * /work/venv (the developer machines' venv), else python3 on the PATH.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const found = new Map<string, string | undefined>();

function candidates(): string[] {
  if (process.env.SIBYL_PYTHON) return [process.env.SIBYL_PYTHON];
  return [resolve(process.cwd(), '.venv/bin/python'), '/work/venv/bin/python', 'python3'];
}

/**
 * The first interpreter that imports every one of `modules`, or undefined when none does. An explicit
 * $SIBYL_PYTHON is the only candidate: a bench then says the reference is missing rather than quietly
 * running another interpreter's versions.
 */
export function pythonWith(modules: readonly string[]): string | undefined {
  const key = [...modules].sort().join(',');
  if (found.has(key)) return found.get(key);
  let chosen: string | undefined;
  for (const python of candidates()) {
    if (python.includes('/') && !existsSync(python)) continue;
    try {
      execFileSync(python, ['-c', modules.length ? `import ${modules.join(', ')}` : 'pass'], { stdio: 'ignore' });
      chosen = python;
      break;
    } catch {
      // lacks a module or does not run: try the next one
    }
  }
  found.set(key, chosen);
  return chosen;
}

/** One line saying which reference is left out and why. */
export function noPython(modules: readonly string[], leftOut: string): string {
  const needs = modules.join(' + ');
  return process.env.SIBYL_PYTHON
    ? `${leftOut}: $SIBYL_PYTHON (${process.env.SIBYL_PYTHON}) does not import ${needs}`
    : `${leftOut}: no Python ($SIBYL_PYTHON, .venv, /work/venv, python3) imports ${needs}`;
}
