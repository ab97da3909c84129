import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, onCredentialRejected, request } from './api.js';
import { ErrorState, Link, Loading } from './components/common.js';
import { SandboxBanner } from './components/sandbox-banner.js';
import { ApprovalsPage } from './pages/approvals.js';
import { AuditPage } from './pages/audit.js';
import { CatalogPage } from './pages/catalog.js';
import { ConnectionsPage } from './pages/connections.js';
import { ExecutionPage } from './pages/execution-page.js';
import { ExecutionsPage } from './pages/executions.js';
import { GroupPage, GroupsPage } from './pages/groups.js';
import { InterceptorPage, InterceptorsPage } from './pages/interceptors.js';
import { KeysPage } from './pages/keys.js';
import { ReviewsPage } from './pages/reviews.js';
import { SignIn } from './pages/sign-in.js';
import { SourceFormPage } from './pages/source-form.js';
import { SourcePage } from './pages/source-page.js';
import { SourcesPage } from './pages/sources.js';
import { StatsPage } from './pages/stats.js';
import { ToolPage } from './pages/tool-page.js';
import { finishOidcSignIn, type OidcSettings } from './oidc.js';
import { match, navigate, useLocation } from './router.js';
import { MeContext } from './session-context.js';
import { forgetKey, storeKey, storedKey } from './session.js';
import type { CurrentPrincipal } from './types.js';

interface NavItem {
  to: string;
  label: string;
  permission: string;
}

const NAV: NavItem[] = [
  { to: '/sources', label: 'Sources', permission: 'sources:read' },
  { to: '/catalog', label: 'Catalog', permission: 'catalog:read' },
  { to: '/executions', label: 'Executions', permission: 'executions:read' },
  { to: '/groups', label: 'Groups', permission: 'groups:manage' },
  { to: '/interceptors', label: 'Interceptors', permission: 'interceptors:manage' },
  { to: '/reviews', label: 'Reviews', permission: 'reviews:read' },
  { to: '/approvals', label: 'Approvals', permission: 'approvals:decide' },
  { to: '/connections', label: 'Connections', permission: 'tools:invoke' },
  { to: '/stats', label: 'Charts', permission: 'stats:read' },
  { to: '/audit', label: 'Audit', permission: 'audit:read' },
  { to: '/keys', label: 'API keys', permission: 'keys:manage' },
];

function Page(props: { path: string }) {
  const { path } = props;
  let params: Record<string, string> | null;
  if (path === '/sources/new') return <SourceFormPage key="new" />;
  if ((params = match('/sources/:name/edit', path))) return <SourceFormPage key={`edit-${params.name}`} name={params.name} />;
  if ((params = match('/sources/:name', path))) return <SourcePage key={params.name} name={params.name!} />;
  if (path === '/sources') return <SourcesPage />;
  if ((params = match('/catalog/:name', path))) return <ToolPage key={params.name} name={params.name!} />;
  if (path === '/catalog') return <CatalogPage />;
  if ((params = match('/executions/:id', path))) return <ExecutionPage key={params.id} id={params.id!} />;
  if (path === '/executions') return <ExecutionsPage />;
  if ((params = match('/groups/:name', path))) return <GroupPage key={params.name} name={params.name!} />;
  if (path === '/groups') return <GroupsPage />;
  if ((params = match('/interceptors/:name', path))) return <InterceptorPage key={params.name} name={params.name!} />;
  if (path === '/interceptors') return <InterceptorsPage />;
  if (path === '/reviews') return <ReviewsPage />;
  if (path === '/approvals') return <ApprovalsPage />;
  if (path === '/stats') return <StatsPage />;
  if (path === '/audit') return <AuditPage />;
  if (path === '/keys') return <KeysPage />;
  if (path === '/connections') return <ConnectionsPage />;
  return <ErrorState error={new ApiError(404, 'NOT_FOUND', `There is no page at ${path}.`)} />;
}

function Shell(props: { me: CurrentPrincipal; onSignOut: () => void }) {
  const location = useLocation();
  const items = NAV.filter((item) => props.me.permissions.includes(item.permission));
  // The console's root shows the first page the role may read.
  const path = location.path === '/' && items[0] ? items[0].to : location.path;
  useEffect(() => {
    if (path !== location.path) navigate(path, true);
  }, [path, location.path]);
  return (
    <MeContext.Provider value={props.me}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">Toolplane</span>
        <nav aria-label="Main">
          <ul>
            {items.map((item) => (
              <li key={item.to}>
                <Link to={item.to} class={path.startsWith(item.to) ? 'current' : undefined}>
                  <span aria-current={path.startsWith(item.to) ? 'page' : undefined}>{item.label}</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span title={props.me.id}>
            {props.me.name} <span class="muted">({props.me.roles.join(', ')})</span>
          </span>
          <button type="button" class="secondary small" onClick={props.onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {props.me.permissions.includes('ops:read') && <SandboxBanner />}
        <Page path={path} />
      </main>
    </MeContext.Provider>
  );
}

function App() {
  const [me, setMe] = useState<CurrentPrincipal | null>(null);
  const [checking, setChecking] = useState(storedKey() !== null);
  const [notice, setNotice] = useState<string | undefined>();
  const [startupError, setStartupError] = useState<unknown>();
  const check = () => {
    setChecking(true);
    setStartupError(undefined);
    request<CurrentPrincipal>('/api/v1/access/me').then(
      (answer) => {
        setMe(answer.body);
        setChecking(false);
      },
      (error: unknown) => {
        setChecking(false);
        if (error instanceof ApiError && error.status === 401) return;
        setStartupError(error);
      },
    );
  };
  const [oidc, setOidc] = useState<OidcSettings | null>(null);
  useEffect(() => {
    // The settings say whether OIDC sign-in is offered; a return from the issuer carries a code to exchange.
    fetch('/console/settings.json', { credentials: 'omit' })
      .then((response) => response.json() as Promise<{ oidc: OidcSettings | null }>)
      .then(async (settings) => {
        setOidc(settings.oidc);
        if (!settings.oidc) return;
        const token = await finishOidcSignIn(settings.oidc);
        if (token) {
          storeKey(token);
          check();
        }
      })
      .catch((error: unknown) => {
        setChecking(false);
        setNotice(error instanceof Error ? error.message : String(error));
      });
    if (storedKey()) check();
    return onCredentialRejected((error) => {
      setMe(null);
      setNotice(error.code === 'API_KEY_EXPIRED' ? 'Your key has expired: sign in with another.' : error.code === 'API_KEY_REVOKED' ? 'Your key was revoked: sign in with another.' : 'Your session ended: sign in again.');
    });
  }, []);
  if (checking) return <Loading label="Signing in…" />;
  if (startupError && !me)
    return (
      <main id="main">
        <ErrorState error={startupError} retry={check} />
      </main>
    );
  if (!me)
    return (
      <SignIn
        notice={notice}
        oidc={oidc}
        onSignedIn={(key, who) => {
          storeKey(key);
          setNotice(undefined);
          setMe(who);
          if (location.pathname === '/console' || location.pathname === '/console/') navigate('/', true);
        }}
      />
    );
  return (
    <Shell
      me={me}
      onSignOut={() => {
        forgetKey();
        setMe(null);
        setNotice('Signed out.');
        navigate('/', true);
      }}
    />
  );
}

render(<App />, document.getElementById('app')!);
