import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, get } from '../api';
import { useAuth } from '../auth';
import { Checkbox, ConfirmButton, ErrorNote, Field, Note, QuotaMeter, usePageTitle } from '../components/ui';
import { formatBytes, formatDate } from '../lib/words';
import type { AccountPage as AccountData, ApiKey } from '../types';

export function AccountPage() {
  usePageTitle('Account');
  const account = useQuery({ queryKey: ['account'], queryFn: () => get<AccountData>('/auth/account') });
  return (
    <>
      <h1 tabIndex={-1}>Account</h1>
      <ErrorNote error={account.error} />
      {account.data && <PlanSection a={account.data} />}
      <KeysSection />
      {account.data && <EmailSection a={account.data} />}
      <PasswordSection />
    </>
  );
}

function PlanSection({ a }: { a: AccountData }) {
  return (
    <section className="card" aria-labelledby="plan-title">
      <h2 id="plan-title">Plan and usage</h2>
      <p>You are on the <strong>{a.plan.name}</strong> plan. Uploads may be up to {formatBytes(a.plan.uploadBytes)} each.</p>
      <QuotaMeter label="Data sets" used={a.usage.dataSets} allotted={a.plan.dataSets} unit="data sets" />
      <QuotaMeter label="Sessions this month" used={a.usage.sessionsThisMonth} allotted={a.plan.sessionsPerMonth} unit="sessions" />
      <QuotaMeter label="Predictions today" used={a.usage.predictionsToday} allotted={a.plan.predictionsPerDay} unit="predictions" />
      <p className="hint">Months and days are counted in UTC. The same numbers come back on every API answer in the Nexosis-Account-* headers.</p>
    </section>
  );
}

function KeysSection() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => get<{ items: ApiKey[] }>('/auth/keys') });
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<ApiKey & { apiKey: string }>();
  const create = useMutation({
    mutationFn: () => api<ApiKey & { apiKey: string }>('POST', '/auth/keys', { label }),
    onSuccess: (k) => { setCreated(k); setLabel(''); void queryClient.invalidateQueries({ queryKey: ['keys'] }); },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api('DELETE', `/auth/keys/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['keys'] }),
  });
  const submit = (e: FormEvent) => { e.preventDefault(); create.mutate(); };
  const active = keys.data?.items.filter((k) => !k.revokedDate) ?? [];
  const revoked = keys.data?.items.filter((k) => k.revokedDate) ?? [];

  return (
    <section className="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p>Programs call the API with a key in the <code>api-key</code> header. Give each program its own key, so you can revoke one without stopping the others.</p>
      <form className="inline-form" onSubmit={submit}>
        <Field label="Label for a new key" placeholder="e.g. laptop, nightly job" maxLength={100} value={label} onChange={(e) => setLabel(e.target.value)} />
        <button className="button primary" type="submit" disabled={create.isPending}>Create key</button>
      </form>
      <ErrorNote error={create.error} />
      {created && (
        <div className="note success new-key" role="status">
          <p><strong>Your new key{created.label ? ` “${created.label}”` : ''}:</strong> copy it now — it is shown only this once, and stored only as a hash.</p>
          <div className="key-row">
            <code data-testid="new-api-key">{created.apiKey}</code>
            <button type="button" className="button subtle small" onClick={() => void navigator.clipboard?.writeText(created.apiKey)}>Copy</button>
            <button type="button" className="button subtle small" onClick={() => setCreated(undefined)}>I have copied it</button>
          </div>
        </div>
      )}
      <ErrorNote error={keys.error ?? revoke.error} />
      {/* "No active keys" only from a list that came back: while it loads or after it failed, nothing is known. */}
      {!keys.isSuccess ? null : active.length === 0 ? <p>No active keys.</p> : (
        <div className="table-scroll">
          <table>
            <caption>Active keys</caption>
            <thead><tr><th scope="col">Key</th><th scope="col">Label</th><th scope="col">Created</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {active.map((k) => (
                <tr key={k.keyId} data-key-prefix={k.prefix}>
                  <td><code>{k.prefix}…</code></td>
                  <td>{k.label ?? <span className="hint">no label</span>}</td>
                  <td>{formatDate(k.createdDate)}</td>
                  <td><ConfirmButton label={`Revoke`} confirmLabel={`Revoke ${k.prefix}…`} onConfirm={() => revoke.mutate(k.keyId)} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoked.length > 0 && (
        <details>
          <summary>Revoked keys ({revoked.length})</summary>
          <ul className="plain-list">{revoked.map((k) => <li key={k.keyId}><code>{k.prefix}…</code> {k.label ?? ''} — revoked {formatDate(k.revokedDate)}</li>)}</ul>
        </details>
      )}
    </section>
  );
}

function EmailSection({ a }: { a: AccountData }) {
  const queryClient = useQueryClient();
  const { refresh } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [resent, setResent] = useState(false);
  const change = useMutation({
    mutationFn: () => api('POST', '/auth/account/email', { email, currentPassword: password }),
    onSuccess: () => { setEmail(''); setPassword(''); void queryClient.invalidateQueries({ queryKey: ['account'] }); void refresh(); },
  });
  const settings = useMutation({
    mutationFn: (notifySessionEmail: boolean) => api('PATCH', '/auth/account', { notifySessionEmail }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
  const resend = useMutation({ mutationFn: () => api('POST', '/auth/verify/resend'), onSuccess: () => setResent(true) });
  const err = change.error instanceof ApiError ? change.error : undefined;

  return (
    <section className="card" aria-labelledby="email-title">
      <h2 id="email-title">E-mail and notifications</h2>
      <p>Your address: <strong>{a.email ?? 'none'}</strong> {a.email && (a.emailVerified ? <span className="badge status-completed">confirmed</span> : <span className="badge status-requested">not confirmed</span>)}</p>
      {!a.mailEnabled && <Note>This installation sends no e-mail (its operator has not set SIBYL_SMTP_URL), so addresses cannot be confirmed and nothing is mailed.</Note>}
      {a.mailEnabled && a.email && !a.emailVerified && (
        <p>{resent ? 'A new confirmation link is on its way.' : <button type="button" className="button subtle" onClick={() => resend.mutate()}>Send the confirmation link again</button>}</p>
      )}
      <ErrorNote error={resend.error ?? settings.error} />
      <Checkbox
        label="E-mail me when a model session ends"
        hint="Sent only to a confirmed address."
        checked={a.settings.notifySessionEmail}
        onChange={(e) => settings.mutate(e.target.checked)}
      />
      <form className="stacked-form" onSubmit={(e) => { e.preventDefault(); change.mutate(); }} noValidate>
        <h3>Change the address</h3>
        <Field label="New e-mail address" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={err?.field('email')} />
        <Field label="Current password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={err?.field('currentPassword')} />
        <ErrorNote error={change.error} shownFields={['email', 'currentPassword']} />
        {change.isSuccess && <Note kind="success">Address changed{a.mailEnabled ? '; confirm it with the link we sent' : ''}.</Note>}
        <button className="button" type="submit" disabled={change.isPending}>Change address</button>
      </form>
    </section>
  );
}

function PasswordSection() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = useMutation({
    mutationFn: () => api('POST', '/auth/account/password', { currentPassword: current, newPassword: next }),
    onSuccess: () => { setCurrent(''); setNext(''); },
  });
  const err = change.error instanceof ApiError ? change.error : undefined;
  return (
    <section className="card" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form className="stacked-form" onSubmit={(e) => { e.preventDefault(); change.mutate(); }} noValidate>
        <Field label="Current password" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} error={err?.field('currentPassword')} />
        <Field label="New password" type="password" autoComplete="new-password" hint="At least 10 characters. Other browsers signed in to this account are signed out." value={next} onChange={(e) => setNext(e.target.value)} error={err?.field('newPassword')} />
        <ErrorNote error={change.error} shownFields={['newPassword', 'currentPassword']} />
        {change.isSuccess && <Note kind="success">Password changed.</Note>}
        <button className="button" type="submit" disabled={change.isPending}>Change password</button>
      </form>
    </section>
  );
}
