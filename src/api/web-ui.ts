/**
 * Serves the dashboard (the Vite build in web/dist) at `/`: hashed assets with a year's caching,
 * and index.html for each of the single-page app's own paths, so a reload or a link from an e-mail
 * opens the right page. An unknown path a browser asks for as a page gets the dashboard with a 404,
 * which shows its own "Page not found"; API clients keep the JSON 404.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { sendError } from './error-handler.js';

/** The client-side routes of web/src/routes.tsx; keep the two lists in step (the browser tests open each). */
export const DASHBOARD_PATHS = [
  '/', '/signin', '/signup', '/forgot', '/reset', '/verify', '/account',
  '/data', '/data/:name', '/sessions', '/sessions/new', '/sessions/:id', '/models', '/models/:id',
];

/** The package root: dist/src/api/web-ui.js (built) or src/api/web-ui.ts (tsx) → ../../(..). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export function webDistDir(): string {
  return join(packageRoot(), 'web', 'dist');
}

/**
 * The page's own scripts and styles only; charts draw on canvas; inline style attributes are
 * allowed (React and ECharts set them). No framing, no referrer (reset links carry a token).
 */
const HTML_HEADERS = {
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-cache',
};

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sibyl</title></head>
<body style="font-family:system-ui;max-width:40rem;margin:3rem auto;line-height:1.5">
<h1>Sibyl</h1><p>The API is running under <a href="/docs">/v1 (documentation)</a>, but the dashboard has not been built.
Run <code>npm run build:web</code> (or start with <code>npm start</code>, which builds it) and reload.</p></body></html>`;

/**
 * A browser opening a page the dashboard does not have (a mistyped link, `/whatever`): a GET or HEAD
 * that accepts HTML, outside the API's `/v1` and `/auth` and the `/assets` files, however the path
 * spells them (`//V1/x`, `/%761/x`), so an API client's mistake stays a JSON 404.
 */
export function wantsDashboardPage(req: FastifyRequest): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (!/\btext\/html\b/i.test(req.headers.accept ?? '')) return false;
  let path = req.url.split('?')[0]!;
  try { path = decodeURIComponent(path); } catch { return false; }
  const first = path.replace(/\/+/g, '/').split('/')[1]?.toLowerCase() ?? '';
  return first !== 'v1' && first !== 'auth' && first !== 'assets';
}

/** The dashboard's index.html (or the note that it is not built) with the given status. */
export function sendDashboardIndex(reply: FastifyReply, statusCode = 200) {
  const root = webDistDir();
  reply.code(statusCode).headers(HTML_HEADERS);
  if (!existsSync(join(root, 'index.html'))) return reply.type('text/html; charset=utf-8').send(NOT_BUILT);
  return reply.sendFile('index.html', { cacheControl: false });
}

export async function registerWebUi(app: FastifyInstance): Promise<void> {
  const root = webDistDir();
  await app.register(fastifyStatic, { root, serve: false });
  const sendIndex = (reply: FastifyReply) => sendDashboardIndex(reply);
  for (const path of DASHBOARD_PATHS) {
    app.get(path, { schema: { hide: true }, config: { public: true } }, (_req, reply) => sendIndex(reply));
  }
  app.get('/assets/*', { schema: { hide: true }, config: { public: true } }, (req, reply) => {
    const file = (req.params as { '*': string })['*'];
    // Vite writes assets flat, with hashed names: anything else (a path, "..") is not one of them.
    if (!/^[\w.-]+$/.test(file) || file.startsWith('.') || !existsSync(join(root, 'assets', file))) {
      return sendError(reply, { statusCode: 404, message: `No resource at /assets/${file}`, errorType: 'NotFound', errorDetails: { path: `/assets/${file}` } });
    }
    reply.header('x-content-type-options', 'nosniff');
    return reply.sendFile(join('assets', file), { immutable: true, maxAge: 365 * 24 * 3600 * 1000 });
  });
}
