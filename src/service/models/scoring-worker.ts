/**
 * A scoring thread (scoring-threads.ts): keeps the models it was sent, by key, and answers
 * `predictScores` or the explanation of the frames it is given. Pure computation; the main thread
 * does everything else.
 */
import { parentPort } from 'node:worker_threads';
import { loadModel } from '../../ml/model-loader.js';
import { explain, explainTreeParts } from '../../ml/explain/explanation.js';
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
    else if (m.explainTreeParts !== undefined) reply = { id: m.id, explanation: explainTreeParts(model, m.frame as Frame, m.explainTreeParts) };
    else if (m.explainBatchRows !== undefined) reply = { id: m.id, explanation: explain(model, m.frame as Frame, { batchRows: m.explainBatchRows }) };
    else reply = { id: m.id, scores: model.predictScores(m.frame as Frame) };
  } catch (e) {
    reply = { id: m.id, error: e instanceof Error ? e.message : String(e) };
  }
  const moved = reply.scores ?? reply.explanation?.values;
  parentPort!.postMessage(reply, moved ? [moved.buffer as ArrayBuffer] : []);
});
