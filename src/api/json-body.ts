import type { FastifyInstance, FastifyRequest } from 'fastify';
import { flawMessage, inspectJson, keepOverflowingNumbers } from '../domain/json-flaws.js';
import { ValidationError } from '../service/errors.js';

/**
 * The JSON body parser. An empty body is no body (clients send Content-Type: application/json on
 * DELETE and GET), and Ruby's `""` literal is a valid empty body. Fastify's parser refuses
 * `__proto__` keys (a merge could otherwise reach a prototype); what it lets through is then walked
 * once for what no handler or store can keep (domain/json-flaws.ts), each a 400 naming its place.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req: FastifyRequest, body: string | Buffer, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    json(req, text, (err, parsed) => {
      // Its refusal of `__proto__` says "not valid JSON": when the text is valid, say what and where.
      if (err) return done(protoKeyError(text) ?? err, undefined);
      const inspection = inspectJson(parsed);
      if (inspection.flaw) return done(new ValidationError({ [inspection.flaw.path]: [flawMessage(inspection.flaw)] }, flawMessage(inspection.flaw)), undefined);
      done(null, inspection.overflow ? JSON.parse(keepOverflowingNumbers(text)) : parsed);
    });
  });
}

function protoKeyError(text: string): ValidationError | undefined {
  let plain: unknown;
  try { plain = JSON.parse(text); } catch { return undefined; }
  const flaw = inspectJson(plain).flaw;
  return flaw ? new ValidationError({ [flaw.path]: [flawMessage(flaw)] }, flawMessage(flaw)) : undefined;
}
