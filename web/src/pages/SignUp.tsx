import { Link, Navigate } from 'react-router';
import { useAuth } from '../auth';
import { useCredentialsForm } from './credentials-form';
import { ErrorNote, Field, Note, usePageTitle } from '../components/ui';

export function SignUpPage() {
  usePageTitle('Create an account');
  const { status, site } = useAuth();
  const { email, setEmail, password, setPassword, error, busy, submit, fieldError, next } = useCredentialsForm('/auth/signup');

  if (status === 'signedIn') return <Navigate to={next} replace />;
  if (!site.signupOpen) {
    return (
      <section className="auth-card card">
        <h1 tabIndex={-1}>Sign-up is closed</h1>
        <p>This installation is private: its operator creates the accounts (<code>sibyl accounts create --email …</code>) and hands out a link to choose a password.</p>
        <p><Link to="/signin">Sign in</Link></p>
      </section>
    );
  }


  return (
    <section className="auth-card card">
      <h1 tabIndex={-1}>Create your Sibyl account</h1>
      <p>Free, on the community plan. Upload a table, train a model, and look at its results.</p>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Field label="E-mail address" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} error={fieldError('email')} />
        <Field label="Password" type="password" name="new-password" autoComplete="new-password" required minLength={10} hint="At least 10 characters. A passphrase of a few words is easy to remember and hard to guess." value={password} onChange={(e) => setPassword(e.target.value)} error={fieldError('password')} />
        <ErrorNote error={error} shownFields={['email', 'password']} />
        <button className="button primary" type="submit" disabled={busy}>{busy ? 'Creating…' : 'Create account'}</button>
      </form>
      {site.mailEnabled && <Note>We will send a link to confirm your address.</Note>}
      <p className="after-form">Have an account already? <Link to="/signin">Sign in</Link>.</p>
    </section>
  );
}
