import { Navigate, Route, Routes, useLocation } from 'react-router';
import type { ReactNode } from 'react';
import { useAuth } from './auth';
import { Layout } from './components/Layout';
import { SignInPage } from './pages/SignIn';
import { SignUpPage } from './pages/SignUp';
import { ForgotPage, ResetPage, VerifyPage } from './pages/Links';
import { HomePage } from './pages/Home';
import { AccountPage } from './pages/Account';
import { DataSetsPage } from './pages/DataSets';
import { DataSetPage } from './pages/DataSet';
import { SessionsPage } from './pages/Sessions';
import { NewSessionPage } from './pages/NewSession';
import { SessionPage } from './pages/Session';
import { ModelsPage } from './pages/Models';
import { ModelPage } from './pages/Model';

/** Pages that need a signed-in browser send everyone else to sign-in, and back afterwards. */
function SignedIn({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <p className="loading" role="status">Loading…</p>;
  if (status === 'signedOut') return <Navigate to={`/signin?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <>{children}</>;
}

/**
 * The dashboard's paths. The server answers each with index.html (src/api/web-ui.ts,
 * DASHBOARD_PATHS): keep the two lists in step.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path="/signin" element={<SignInPage />} />
        <Route path="/signup" element={<SignUpPage />} />
        <Route path="/forgot" element={<ForgotPage />} />
        <Route path="/reset" element={<ResetPage />} />
        <Route path="/verify" element={<VerifyPage />} />
        <Route path="/" element={<SignedIn><HomePage /></SignedIn>} />
        <Route path="/account" element={<SignedIn><AccountPage /></SignedIn>} />
        <Route path="/data" element={<SignedIn><DataSetsPage /></SignedIn>} />
        <Route path="/data/:name" element={<SignedIn><DataSetPage /></SignedIn>} />
        <Route path="/sessions" element={<SignedIn><SessionsPage /></SignedIn>} />
        <Route path="/sessions/new" element={<SignedIn><NewSessionPage /></SignedIn>} />
        <Route path="/sessions/:id" element={<SignedIn><SessionPage /></SignedIn>} />
        <Route path="/models" element={<SignedIn><ModelsPage /></SignedIn>} />
        <Route path="/models/:id" element={<SignedIn><ModelPage /></SignedIn>} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

function NotFound() {
  return (
    <section>
      <h1 tabIndex={-1}>Page not found</h1>
      <p>There is nothing at this address. <a href="/">Go to the start page</a>.</p>
    </section>
  );
}
