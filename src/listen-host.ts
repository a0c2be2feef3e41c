import { createServer } from 'node:net';
import { ConfigError } from './config.js';

/**
 * Checks HOST before anything is opened, by listening on it on a free port for a moment: a name
 * that does not resolve or an address of another machine would otherwise stop the start only after
 * the store was opened, with a bare `getaddrinfo ENOTFOUND` or `EADDRNOTAVAIL` naming no setting.
 */
export async function checkListenHost(host: string): Promise<void> {
  const probe = createServer();
  const failure = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    probe.once('error', resolve);
    probe.listen(0, host, () => resolve(undefined));
  });
  if (!failure) { await new Promise((r) => probe.close(r)); return; }
  const setting = `HOST=${JSON.stringify(host)}`;
  const rule = 'the interface to listen on: 127.0.0.1 (the default), 0.0.0.0 for all, or an address or host name of this machine';
  if (failure.code === 'ENOTFOUND' || failure.code === 'EAI_AGAIN' || failure.code === 'EAI_FAIL') {
    throw new ConfigError([`${setting} is neither an IP address nor a host name that resolves (${failure.code}): ${rule}`]);
  }
  if (failure.code === 'EADDRNOTAVAIL') throw new ConfigError([`${setting} is not an address of this machine (EADDRNOTAVAIL): ${rule}`]);
  // Anything else (a port rule, say) is left to the real listen, which reports it as before.
}
