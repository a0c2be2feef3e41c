/**
 * What a predict answer says about its records: a model answers every record, even one whose values it
 * could not read or that lacks its columns, and such an answer looks as sure as any other. These
 * messages say which inputs the model did not get, so a client sees a misspelt column or a word in a
 * numeric field instead of a quietly worse prediction.
 */
import type { FarValues, UnreadValues } from '../../ml/encode.js';
import type { Message } from '../../store/schema.js';
import { closestName } from '../../domain/similar-names.js';
import { listInWords, numberInWords } from '../../domain/wording.js';

/** Columns named in one message at most; the rest are counted. */
const MAX_NAMED = 10;

const TAKES: Record<Exclude<UnreadValues['expects'], 'knownCategory'>, string> = {
  number: 'numbers',
  truthValue: 'truth values (true/false, yes/no, 1/0)',
  date: 'dates',
};

function named(columns: string[]): string {
  const shown = columns.slice(0, MAX_NAMED).join(', ');
  return columns.length > MAX_NAMED ? `${shown} and ${columns.length - MAX_NAMED} more` : shown;
}

function unreadMessage(u: UnreadValues, recordCount: number): string {
  const first = `the first: record ${u.firstRow + 1}, ${JSON.stringify(u.firstValue)}`;
  if (u.expects === 'knownCategory') {
    // A model kept after a refit on all rows still reads categories as its first fit learnt them, from
    // the session's training rows: a value only in the held-back test rows ('dodge colt', 2 of 406 rows) is new to it.
    return `Column ${u.column} held a category not seen in training in ${u.count} of ${recordCount} records (${first}); the model treated it as missing. ` +
      'A model learns its categories from the session\'s training rows, so a value found only in its held-back test rows is new to it too.';
  }
  return `Column ${u.column} takes ${TAKES[u.expects]}; ${u.count} of ${recordCount} records held a value that is not one (${first}), which the model treated as missing.`;
}

function farMessage(f: FarValues, recordCount: number): string {
  const [lo, hi] = f.range.map(numberInWords);
  return `Column ${f.column} held values far outside those the model was trained on (${lo} to ${hi}) in ${f.count} of ${recordCount} records ` +
    `(the first: record ${f.firstRow + 1}, ${numberInWords(f.firstValue)}): nothing in its training is behind its answers for them. ` +
    'Check the values for a code such as -9999 or a unit the model was not trained in.';
}

/**
 * " The records' column Displacment is not one of the model's inputs: did you mean Displacement?", for
 * the missing inputs that a column of the records outside the model's (`others`) probably stands for.
 */
function misspelt(missing: string[], others: () => string[]): string {
  const columns = others();
  const pairs = missing.flatMap((input) => {
    const sent = closestName(input, columns);
    return sent === undefined ? [] : [{ sent, input }];
  }).slice(0, MAX_NAMED);
  if (pairs.length === 0) return '';
  const sent = listInWords(pairs.map((p) => p.sent));
  const meant = listInWords(pairs.map((p) => p.input));
  return pairs.length === 1
    ? ` The records' column ${sent} is not one of the model's inputs: did you mean ${meant}?`
    : ` The records' columns ${sent} are not among the model's inputs: did you mean ${meant}?`;
}

/**
 * Warnings for `recordCount` records: the model's input columns absent from them (`absent`: per input
 * column, the records without it), with the records' other columns (`others`, read only when an
 * input is missing from every record) that look like misspellings of them, and values present but unread (encode.ts UnreadValues).
 */
export function predictionInputMessages(
  recordCount: number, inputs: string[], absent: number[], unread: UnreadValues[], others: () => string[] = () => [], far: FarValues[] = [],
): Message[] {
  const messages: Message[] = [];
  if (recordCount === 0) return messages;
  const everywhere = inputs.filter((_, j) => absent[j] === recordCount);
  if (everywhere.length === inputs.length && inputs.length > 0) {
    messages.push({
      severity: 'warning',
      message: `None of the model's ${inputs.length} input columns (${named(inputs)}) is in the records, so every prediction is the model's answer for a record whose values are all missing. Check the column names against the model's columns.${misspelt(inputs, others)}`,
    });
  } else if (everywhere.length > 0) {
    messages.push({
      severity: 'warning',
      message: `The records lack ${everywhere.length} of the model's ${inputs.length} input columns (${named(everywhere)}); the model treated their values as missing.${misspelt(everywhere, others)}`,
    });
  }
  const sometimes = inputs.flatMap((c, j) => (absent[j]! > 0 && absent[j]! < recordCount ? [`${c} (absent from ${absent[j]})`] : []));
  if (sometimes.length > 0) {
    messages.push({
      severity: 'warning',
      message: `Some of the ${recordCount} records lack input columns of the model, which treated them as missing: ${named(sometimes)}.`,
    });
  }
  for (const u of unread.slice(0, MAX_NAMED)) messages.push({ severity: 'warning', message: unreadMessage(u, recordCount) });
  if (unread.length > MAX_NAMED) {
    messages.push({ severity: 'warning', message: `${unread.length - MAX_NAMED} more columns held values the model could not read: ${named(unread.slice(MAX_NAMED).map((u) => u.column))}.` });
  }
  for (const f of far.slice(0, MAX_NAMED)) messages.push({ severity: 'warning', message: farMessage(f, recordCount) });
  if (far.length > MAX_NAMED) {
    messages.push({ severity: 'warning', message: `${far.length - MAX_NAMED} more columns held values far outside those the model was trained on: ${named(far.slice(MAX_NAMED).map((f) => f.column))}.` });
  }
  return messages;
}
