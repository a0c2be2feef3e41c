import { useEffect, useId, useState, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api';
import { formatNumber, formatPercent, isFractionMetric, metricLabel } from '../lib/words';

/** Sets the document title for a page. */
export function usePageTitle(title: string): void {
  useEffect(() => { document.title = `${title} · Sibyl`; }, [title]);
}

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> { label: string; hint?: ReactNode; error?: string }

/** Label, hint and error around one form control, tied to it for assistive technology. */
function FieldFrame({ label, hint, error, id, control }: { label: string; hint?: ReactNode; error?: string; id?: string; control: (aria: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode }) {
  const auto = useId();
  const fieldId = id ?? auto;
  const hintId = hint ? `${fieldId}-hint` : undefined;
  const errorId = error ? `${fieldId}-error` : undefined;
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={fieldId}>{label}</label>
      {hint && <p className="hint" id={hintId}>{hint}</p>}
      {control({ id: fieldId, 'aria-invalid': error ? true : undefined, 'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined })}
      {error && <p className="field-error" id={errorId}>{error}</p>}
    </div>
  );
}

/** A labelled input. */
export function Field({ label, hint, error, id, ...input }: FieldProps) {
  return <FieldFrame label={label} hint={hint} error={error} id={id} control={(aria) => <input {...aria} {...input} />} />;
}

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> { label: string; hint?: ReactNode; error?: string; options: (string | { value: string; label: string })[] }

/** A labelled select. */
export function SelectField({ label, hint, error, id, options, ...select }: SelectProps) {
  return (
    <FieldFrame label={label} hint={hint} error={error} id={id} control={(aria) => (
      <select {...aria} {...select}>
        {options.map((o) => (typeof o === 'string' ? <option key={o} value={o}>{o}</option> : <option key={o.value} value={o.value}>{o.label}</option>))}
      </select>
    )} />
  );
}

export function Checkbox({ label, hint, ...input }: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode }) {
  const id = useId();
  return (
    <div className="checkbox">
      <input type="checkbox" id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      <label htmlFor={id}>{label}</label>
      {hint && <p className="hint" id={`${id}-hint`}>{hint}</p>}
    </div>
  );
}

/**
 * An error from the API (or anything else), announced when it appears. The API's message is always
 * shown: it is the reason, and field entries may only repeat what was sent. `shownFields` are the
 * fields whose reasons the form shows beside their inputs, so the list leaves them out.
 */
export function ErrorNote({ error, title, shownFields }: { error: unknown; title?: string; shownFields?: readonly string[] }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const details = error instanceof ApiError ? error.detailsExcept(shownFields) : [];
  return (
    <div className="note error" role="alert">
      {title && <strong>{title}: </strong>}
      {message}
      {details.length > 0 && <ul>{details.map((d) => <li key={d}>{d}</li>)}</ul>}
    </div>
  );
}

/**
 * The error of the request for what a page's address names. "Not found" (404), or an id that cannot be
 * one (400), is said in words with the way back to the list; any other failure as it came.
 */
export function AddressError({ error, what, id, list }: { error: unknown; what: string; id: string; list: { to: string; label: string } }) {
  if (!(error instanceof ApiError && (error.status === 404 || error.status === 400))) return <ErrorNote error={error} />;
  return (
    <Note kind="warning">
      There is no {what} <code>{id}</code> in your account: it has been deleted, or the address is not complete. <Link to={list.to}>{list.label}</Link>
    </Note>
  );
}

export function Note({ children, kind = 'info' }: { children: ReactNode; kind?: 'info' | 'success' | 'warning' }) {
  return <div className={`note ${kind}`} role={kind === 'success' ? 'status' : undefined}>{children}</div>;
}

/**
 * The warnings among an answer's messages, in view: a caution about what a figure rests on (few test
 * rows, unread inputs) belongs beside the figure, not in a folded list.
 */
export function Warnings({ messages, testId }: { messages: { severity: string; message: string }[]; testId?: string }) {
  const warnings = messages.filter((m) => m.severity === 'warning');
  if (warnings.length === 0) return null;
  return (
    <div className="note warning" data-testid={testId}>
      <strong>{warnings.length === 1 ? 'Note' : 'Notes'}:</strong>
      <ul>{warnings.map((m, i) => <li key={i}>{m.message}</li>)}</ul>
    </div>
  );
}

const STATUS_TEXT: Record<string, string> = { requested: 'Requested', started: 'Running', completed: 'Completed', failed: 'Failed', cancelled: 'Cancelled' };

/** Status in words and colour (never colour alone). */
export function StatusBadge({ status }: { status: string }) {
  const s = status.toLowerCase();
  return <span className={`badge status-${s}`}>{s === 'started' && <span className="spinner" aria-hidden="true" />}{STATUS_TEXT[s] ?? status}</span>;
}

export function formatMetric(name: string, v: number | string | undefined): string {
  if (typeof v !== 'number') return v === undefined ? '—' : String(v);
  return isFractionMetric(name) ? formatPercent(v) : formatNumber(v);
}

/** A metric's interval at `level` (a session's test metrics: GET …/results metricIntervals). */
export interface MetricIntervals { level: number; metrics: Record<string, { lower: number; upper: number }>; otherMethods?: Record<string, string> }

/** Headline numbers as cards (a description list, so each value is read with its name), with their intervals when given. */
export function MetricCards({ metrics, order, hints, intervals }: { metrics: Record<string, number | string>; order?: string[]; hints?: Record<string, string>; intervals?: MetricIntervals }) {
  const names = [...(order ?? []).filter((n) => n in metrics), ...Object.keys(metrics).filter((n) => !(order ?? []).includes(n))];
  if (names.length === 0) return null;
  return (
    <dl className="metric-cards">
      {names.map((n) => (
        <div className="metric-card" key={n}>
          <dt>{metricLabel(n)}</dt>
          <dd>{formatMetric(n, metrics[n])}</dd>
          {intervals?.metrics[n] && <p className="hint" data-testid={`interval-${n}`}>{Math.round(intervals.level * 100)} % interval {formatMetric(n, intervals.metrics[n]!.lower)} – {formatMetric(n, intervals.metrics[n]!.upper)}</p>}
          {hints?.[n] && <p className="hint">{hints[n]}</p>}
        </div>
      ))}
    </dl>
  );
}

export function Pager({ page, totalPages, onPage, label }: { page: number; totalPages: number; onPage: (p: number) => void; label: string }) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="button subtle" disabled={page <= 0} onClick={() => onPage(page - 1)}>Previous</button>
      <span aria-live="polite">Page {page + 1} of {totalPages}</span>
      <button type="button" className="button subtle" disabled={page + 1 >= totalPages} onClick={() => onPage(page + 1)}>Next</button>
    </nav>
  );
}

/** A plain table of records with a caption; columns default to the keys of the first record. */
export function RecordTable({ rows, columns, caption, highlight }: { rows: Record<string, string>[]; columns?: string[]; caption: ReactNode; highlight?: (c: string) => boolean }) {
  const cols = columns ?? Object.keys(rows[0] ?? {});
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={typeof caption === 'string' ? caption : 'table'}>
      <table>
        <caption>{caption}</caption>
        <thead><tr>{cols.map((c) => <th scope="col" key={c} className={highlight?.(c) ? 'highlight' : undefined}>{c}</th>)}</tr></thead>
        <tbody>
          {rows.map((r, i) => <tr key={i}>{cols.map((c) => <td key={c} className={highlight?.(c) ? 'highlight' : undefined}>{r[c]}</td>)}</tr>)}
        </tbody>
      </table>
    </div>
  );
}

/** Code with a copy button. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="code-block">
      <div className="code-head">
        <span>{label}</span>
        <button type="button" className="button subtle small" onClick={() => void navigator.clipboard?.writeText(code).then(() => { setCopied(true); setTimeout(() => setCopied(false), 2000); })}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre tabIndex={0} aria-label={label}><code>{code}</code></pre>
    </div>
  );
}

/** The allotment the server gives an unlimited plan in place of no limit (src/service/usage.ts). */
const UNLIMITED = 1_000_000_000;

/** Usage against a quota, as a meter with its numbers in words; an unlimited one is a count, without a meter. */
export function QuotaMeter({ label, used, allotted, unit }: { label: string; used: number; allotted: number; unit: string }) {
  const id = useId();
  const share = allotted > 0 ? used / allotted : 0;
  if (allotted >= UNLIMITED) {
    return <div className="quota"><div className="quota-head"><span id={id}>{label}</span><span>{used.toLocaleString()} {unit}, unlimited</span></div></div>;
  }
  return (
    <div className="quota">
      <div className="quota-head"><span id={id}>{label}</span><span>{used.toLocaleString()} of {allotted.toLocaleString()} {unit}</span></div>
      <meter aria-labelledby={id} min={0} max={allotted} low={allotted * 0.8} high={allotted * 0.95} optimum={0} value={Math.min(used, allotted)}>{Math.round(share * 100)} %</meter>
    </div>
  );
}

/** A destructive action that asks once more in place (no modal to trap the focus). */
export function ConfirmButton({ label, confirmLabel, onConfirm, disabled }: { label: string; confirmLabel: string; onConfirm: () => void; disabled?: boolean }) {
  const [asking, setAsking] = useState(false);
  if (!asking) return <button type="button" className="button danger-outline small" disabled={disabled} onClick={() => setAsking(true)}>{label}</button>;
  return (
    <span className="confirm" role="group" aria-label={confirmLabel}>
      <button type="button" className="button danger small" autoFocus onClick={() => { setAsking(false); onConfirm(); }}>{confirmLabel}</button>
      <button type="button" className="button subtle small" onClick={() => setAsking(false)}>Cancel</button>
    </span>
  );
}
