import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api, ApiError, get, setCsrfToken, whenSignedOut } from './api';
import type { AccountInfo } from './types';

export interface SiteConfig { signupOpen: boolean; mailEnabled: boolean }
interface SignedInAnswer { account: AccountInfo; csrfToken: string }

interface AuthState {
  status: 'loading' | 'signedIn' | 'signedOut';
  account?: AccountInfo;
  site: SiteConfig;
  /** After sign-in, sign-up or a password reset: the answer carries the account and CSRF token. */
  signedIn(answer: SignedInAnswer): void;
  signOut(): Promise<void>;
  refresh(): Promise<void>;
}

const AuthContext = createContext<AuthState | undefined>(undefined);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<AuthState['status']>('loading');
  const [account, setAccount] = useState<AccountInfo>();
  const [site, setSite] = useState<SiteConfig>({ signupOpen: true, mailEnabled: false });

  const signedIn = useCallback((a: SignedInAnswer) => {
    setCsrfToken(a.csrfToken);
    setAccount(a.account);
    setStatus('signedIn');
  }, []);

  const signedOut = useCallback(() => {
    setCsrfToken('');
    setAccount(undefined);
    setStatus('signedOut');
    queryClient.clear();
  }, [queryClient]);

  const refresh = useCallback(async () => {
    try {
      signedIn(await get<SignedInAnswer>('/auth/session'));
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) signedOut();
      else throw e;
    }
  }, [signedIn, signedOut]);

  useEffect(() => {
    whenSignedOut(signedOut);
    void get<SiteConfig>('/auth/config').then(setSite).catch(() => {});
    void refresh().catch(() => setStatus('signedOut'));
  }, [refresh, signedOut]);

  const signOut = useCallback(async () => {
    await api('POST', '/auth/signout').catch(() => {});
    signedOut();
  }, [signedOut]);

  const value = useMemo(() => ({ status, account, site, signedIn, signOut, refresh }), [status, account, site, signedIn, signOut, refresh]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const a = useContext(AuthContext);
  if (!a) throw new Error('useAuth outside AuthProvider');
  return a;
}
