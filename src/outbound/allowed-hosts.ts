import { isIPv6 } from 'node:net';

/**
 * Parses SIBYL_ALLOW_PRIVATE_HOSTS: comma-separated host names or IP literals (IPv6 with or without
 * brackets). Entries are normalised the way URL hosts are (lower case, canonical IP form, no
 * trailing dot), so `hostKey(url)` can be looked up directly. A malformed entry throws: a
 * misconfigured allow-list should stop the service at start-up, not silently allow or refuse.
 */
export function parseAllowedHosts(env: string | undefined): Set<string> {
  const hosts = new Set<string>();
  for (const raw of (env ?? '').split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    hosts.add(normaliseEntry(entry));
  }
  return hosts;
}

/** The URL's host as matched against the allow-list: no port, no IPv6 brackets, no trailing dot. */
export function hostKey(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

function normaliseEntry(entry: string): string {
  const invalid = new Error(
    `SIBYL_ALLOW_PRIVATE_HOSTS: "${entry}" is not a host name or IP address (no scheme, port or path)`,
  );
  const bare = entry.replace(/^\[(.*)\]$/, '$1');
  if (!isIPv6(bare) && bare.includes(':')) throw invalid; // a port ("host:80" would parse as port-less)
  let url: URL;
  try {
    url = new URL(`http://${isIPv6(bare) ? `[${bare}]` : bare}/`);
  } catch {
    throw invalid;
  }
  if (url.port !== '' || url.pathname !== '/' || url.username !== '' || url.search !== '' || url.hash !== '') {
    throw invalid;
  }
  return hostKey(url);
}
