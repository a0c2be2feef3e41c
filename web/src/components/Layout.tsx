import { useEffect } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../auth';
import logo from '../favicon.svg';

/** Header, navigation, and the page. After each navigation the page's heading takes the focus, so screen readers announce it. */
export function Layout() {
  const { status, account, signOut } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    const t = setTimeout(() => (document.querySelector('main h1') as HTMLElement | null)?.focus({ preventScroll: false }), 0);
    return () => clearTimeout(t);
  }, [location.pathname]);

  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="site-header">
        <div className="header-inner">
          <NavLink to="/" className="brand" aria-label="Sibyl, start page">
            <img src={logo} alt="" width="28" height="28" />
            <span>Sibyl</span>
          </NavLink>
          {status === 'signedIn' && (
            <nav aria-label="Main">
              <ul>
                <li><NavLink to="/data">Data sets</NavLink></li>
                <li><NavLink to="/sessions">Sessions</NavLink></li>
                <li><NavLink to="/models">Models</NavLink></li>
                <li><NavLink to="/account">Account</NavLink></li>
              </ul>
            </nav>
          )}
          {status === 'signedIn' && (
            <div className="who">
              <span className="who-email" title="Signed in as">{account?.email}</span>
              <button type="button" className="button subtle" onClick={() => void signOut().then(() => navigate('/signin'))}>Sign out</button>
            </div>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="site-footer">
        <p>Sibyl — the API is under <code>/v1</code>; its reference is at <a href="/docs">/docs</a>.</p>
      </footer>
    </>
  );
}
