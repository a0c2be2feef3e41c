import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api, ApiError } from '../api';
import { useAuth } from '../auth';
import { ErrorNote, Field, usePageTitle } from '../components/ui';
import type { AccountInfo } from '../types';

/** Where to go after signing in: only a path of this site (never another origin). */
export function nextPath(params: URLSearchParams): string {
  const next = params.get('next') ?? '/';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function SignInPage() {
  usePageTitle('Sign in');
  const { status, signedIn, site } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  if (status === 'signedIn') return <Navigate to={nextPath(params)} replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      signedIn(await api<{ account: AccountInfo; csrfToken: string }>('POST', '/auth/signin', { email, password }));
      navigate(nextPath(params), { replace: true });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (f: string) => (error instanceof ApiError ? error.field(f) : undefined);

  return (
    <section className="auth-card card">
      <h1 tabIndex={-1}>Sign in to Sibyl</h1>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Field label="E-mail address" type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} error={fieldError('email')} />
        <Field label="Password" type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} error={fieldError('password')} />
        {error instanceof ApiError && !error.field('email') && !error.field('password') && <ErrorNote error={error} />}
        {error !== undefined && !(error instanceof ApiError) && <ErrorNote error={error} />}
        <button className="button primary" type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
      <p className="after-form">
        {site.signupOpen && <>New here? <Link to="/signup">Create an account</Link>. </>}
        {site.mailEnabled ? <Link to="/forgot">Forgot your password?</Link> : <span className="hint">Forgot your password? Ask this installation's operator for a set-password link.</span>}
      </p>
    </section>
  );
}
