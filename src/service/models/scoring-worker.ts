/**
 * A scoring thread (scoring-threads.ts): keeps the models it was sent, by key, and answers
 * `predictScores` of the frames it is given. Pure computation; the main thread does everything else.
 */
import { parentPort } from 'node:worker_threads';
import { loadModel } from '../../ml/model-loader.js';
import type { Frame, Model } from '../../ml/frame.js';
import { LruCache } from './model-cache.js';
import type { ScoreReply, ScoreRequest } from './scoring-threads.js';

/** Models kept per thread; one missing is asked for again (a second message), never wrong. */
const models = new LruCache<string, Model>(16);

parentPort!.on('message', (m: ScoreRequest) => {
  let reply: ScoreReply;
  try {
    if (m.learner !== undefined) models.set(m.key, loadModel(m.learner));
    const model = models.get(m.key);
    if (!model) reply = { id: m.id, needModel: true };
    else {
      const scores = model.predictScores(m.frame as Frame);
      reply = { id: m.id, scores };
    }
  } catch (e) {
    reply = { id: m.id, error: e instanceof Error ? e.message : String(e) };
  }
  parentPort!.postMessage(reply, reply.scores ? [reply.scores.buffer as ArrayBuffer] : []);
});
