/** Pages reached from e-mailed links: request a reset, set a new password, confirm an address. */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, ApiError } from '../api';
import { useAuth } from '../auth';
import { ErrorNote, Field, Note, usePageTitle } from '../components/ui';
import type { AccountInfo } from '../types';

/** Links carry the token after `#` (never sent to a server, never in a Referer) or, from older mails, in `?token=`. */
function linkToken(): string {
  const hash = new URLSearchParams(window.location.hash.slice(1)).get('token');
  return hash ?? new URLSearchParams(window.location.search).get('token') ?? '';
}

export function ForgotPage() {
  usePageTitle('Reset your password');
  const { site } = useAuth();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    try {
      await api('POST', '/auth/forgot', { email });
      setSent(true);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section className="auth-card card">
      <h1 tabIndex={-1}>Reset your password</h1>
      {!site.mailEnabled && <Note kind="warning">This installation sends no e-mail. Ask its operator for a set-password link (<code>sibyl accounts password-link --account you@example.org</code>).</Note>}
      {sent ? <Note kind="success">If an account uses {email}, a link to choose a new password is on its way. It works once, for one hour.</Note> : (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <Field label="E-mail address" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} error={error instanceof ApiError ? error.field('email') : undefined} />
          <ErrorNote error={error} shownFields={['email']} />
          <button className="button primary" type="submit" disabled={!site.mailEnabled}>Send the link</button>
        </form>
      )}
      <p className="after-form"><Link to="/signin">Back to sign-in</Link></p>
    </section>
  );
}

export function ResetPage() {
  usePageTitle('Choose a new password');
  const { signedIn } = useAuth();
  const navigate = useNavigate();
  const [token] = useState(linkToken);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    try {
      signedIn(await api<{ account: AccountInfo; csrfToken: string }>('POST', '/auth/reset', { token, password }));
      navigate('/', { replace: true });
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section className="auth-card card">
      <h1 tabIndex={-1}>Choose a new password</h1>
      {!token && <Note kind="warning">This page needs the link from your e-mail (or from the operator).</Note>}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Field label="New password" type="password" autoComplete="new-password" required minLength={10} hint="At least 10 characters." value={password} onChange={(e) => setPassword(e.target.value)} error={error instanceof ApiError ? error.field('password') : undefined} />
        <ErrorNote error={error} shownFields={['password']} />
        <button className="button primary" type="submit" disabled={!token}>Set password and sign in</button>
      </form>
    </section>
  );
}

export function VerifyPage() {
  usePageTitle('Confirm your e-mail address');
  const [token] = useState(linkToken);
  const [state, setState] = useState<'ready' | 'done'>('ready');
  const [error, setError] = useState<unknown>();
  // A button rather than an automatic request: mail scanners that open links must not use them up.
  const confirm = async () => {
    setError(undefined);
    try {
      await api('POST', '/auth/verify', { token });
      setState('done');
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section className="auth-card card">
      <h1 tabIndex={-1}>Confirm your e-mail address</h1>
      {state === 'done' ? <Note kind="success">Your address is confirmed. Session results can now be e-mailed to you.</Note> : (
        <>
          <p>Confirm that this address belongs to your Sibyl account.</p>
          <button type="button" className="button primary" disabled={!token} onClick={() => void confirm()}>Confirm my address</button>
        </>
      )}
      <ErrorNote error={error} />
      <p className="after-form"><Link to="/">Go to the dashboard</Link></p>
    </section>
  );
}
