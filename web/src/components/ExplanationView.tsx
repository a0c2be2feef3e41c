import { useState } from 'react';
import { Chart } from './Chart';
import { SelectField } from './ui';
import { waterfallOption } from '../charts/waterfall';
import { formatNumber } from '../lib/words';
import type { RecordExplanation } from '../pages/results/detect';

const SCALE_WORDS: Record<string, string> = {
  value: 'predicted value',
  logOdds: 'log-odds',
  margin: 'class margin (log-odds scale)',
  probability: 'probability',
};

/**
 * One record's explanation: a waterfall from the base value (the average prediction over the training
 * rows) through each column's contribution to this record's prediction, per class where there are several.
 */
export function ExplanationView({ explanation, preferredClass }: { explanation: RecordExplanation; preferredClass?: string }) {
  const outputs = explanation.outputs;
  const initial = Math.max(0, outputs.findIndex((o) => o.class !== null && o.class === preferredClass));
  const [chosen, setChosen] = useState(initial);
  const out = outputs[Math.min(chosen, outputs.length - 1)]!;
  const scale = SCALE_WORDS[explanation.scale] ?? explanation.scale;
  const items = Object.entries(out.contributions).map(([name, value]) => ({ name, value }));
  const top = [...items].sort((a, b) => Math.abs(b.value) - Math.abs(a.value)).slice(0, 3);
  return (
    <div className="explanation" data-testid="explanation">
      {outputs.length > 1 && (
        <SelectField label="Explain the score of class" value={String(chosen)} onChange={(e) => setChosen(Number(e.target.value))}
          options={outputs.map((o, i) => ({ value: String(i), label: o.class ?? `output ${i + 1}` }))} />
      )}
      <p data-testid="explanation-summary">
        {out.class !== null ? <>For class <strong>{out.class}</strong>, the </> : 'The '}
        {scale} starts at <strong>{formatNumber(out.baseValue, 4)}</strong> (the average over the training rows) and ends at <strong>{formatNumber(out.prediction, 4)}</strong> for this record.
        {top.length > 0 && <> Largest effects: {top.map((t) => `${t.name} ${t.value >= 0 ? '+' : ''}${formatNumber(t.value, 3)}`).join(', ')}.</>}
      </p>
      <Chart testId="chart-explanation" option={waterfallOption(out.baseValue, items, out.prediction, `Contribution to the ${scale}`)}
        height={Math.max(220, 26 * Math.min(14, items.length + 2) + 60)}
        summary={`Waterfall from base value ${formatNumber(out.baseValue, 4)} to prediction ${formatNumber(out.prediction, 4)} on the ${scale} scale`}
        table={{ columns: ['column', 'contribution'], rows: [...items].sort((a, b) => Math.abs(b.value) - Math.abs(a.value)).map((i) => [i.name, i.value]) }} />
      <p className="hint">{explanation.description}</p>
    </div>
  );
}
