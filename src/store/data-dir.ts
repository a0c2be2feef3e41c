import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../config.js';

const WHAT_IT_IS = 'where the embedded store lives (made on first start): choose a directory this user can create and write';

/**
 * Makes the embedded store's directory (SIBYL_DATA_DIR) one level at a time. Node's recursive mkdir
 * loops forever when a parent exists but refuses new entries with ENOENT (anything under /proc), and
 * its errors name a path, not the setting: here every failure stops the start naming the variable,
 * like the other wrong settings.
 */
export function makeDataDir(dataDir: string): void {
  const missing: string[] = [];
  let existing = dataDir;
  for (;;) {
    let found: boolean;
    try { found = statSync(existing, { throwIfNoEntry: false }) !== undefined; } catch { found = false; } // ENOTDIR: a file above it
    if (found || dirname(existing) === existing) break;
    missing.unshift(existing);
    existing = dirname(existing);
  }
  const problem = (why: string) => new ConfigError([`SIBYL_DATA_DIR=${JSON.stringify(dataDir)} ${why}: ${WHAT_IT_IS}`]);
  if (!statSync(existing).isDirectory()) throw problem(`is under ${existing}, which is a file, not a directory`);
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'error';
      if (code === 'EEXIST') continue; // made by another process meanwhile
      throw problem(`cannot be created: making ${dir} failed with ${code} (${REASONS[code] ?? (e as Error).message})`);
    }
  }
  try { accessSync(dataDir, constants.W_OK); } catch { throw problem('is not writable by this user'); }
}

const REASONS: Record<string, string> = {
  EPERM: 'the file system does not allow it',
  EACCES: 'permission denied',
  EROFS: 'a read-only file system',
  ENOENT: 'its parent takes no new directories, as on /proc',
  ENOSPC: 'no space left on the device',
};
