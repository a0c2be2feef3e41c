import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api, ApiError } from '../api';
import { useAuth } from '../auth';
import type { AccountInfo } from '../types';

/** Where to go after signing in: only a path of this site (never another origin). */
export function nextPath(params: URLSearchParams): string {
  const next = params.get('next') ?? '/';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/** The e-mail + password form of sign-in and sign-up: its state, and a submit that posts to `path`. */
export function useCredentialsForm(path: '/auth/signin' | '/auth/signup') {
  const { signedIn } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      signedIn(await api<{ account: AccountInfo; csrfToken: string }>('POST', path, { email, password }));
      navigate(nextPath(params), { replace: true });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (f: string) => (error instanceof ApiError ? error.field(f) : undefined);
  return { email, setEmail, password, setPassword, error, busy, submit, fieldError, next: nextPath(params) };
}
