import { Link, Navigate } from 'react-router';
import { useAuth } from '../auth';
import { useCredentialsForm } from './credentials-form';
import { ErrorNote, Field, usePageTitle } from '../components/ui';

export function SignInPage() {
  usePageTitle('Sign in');
  const { status, site } = useAuth();
  const { email, setEmail, password, setPassword, error, busy, submit, fieldError, next } = useCredentialsForm('/auth/signin');

  if (status === 'signedIn') return <Navigate to={next} replace />;


  return (
    <section className="auth-card card">
      <h1 tabIndex={-1}>Sign in to Sibyl</h1>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Field label="E-mail address" type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} error={fieldError('email')} />
        <Field label="Password" type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} error={fieldError('password')} />
        <ErrorNote error={error} shownFields={['email', 'password']} />
        <button className="button primary" type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
      <p className="after-form">
        {site.signupOpen && <>New here? <Link to="/signup">Create an account</Link>. </>}
        {site.mailEnabled ? <Link to="/forgot">Forgot your password?</Link> : <span className="hint">Forgot your password? Ask this installation's operator for a set-password link.</span>}
      </p>
    </section>
  );
}
