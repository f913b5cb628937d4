// Routes: the public pages for visitors, the pages of mailed links, everything else behind a session.
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/Layout.tsx';
import { ProjectLayout } from './components/ProjectLayout.tsx';
import { SettingsLayout } from './components/SettingsLayout.tsx';
import { PageLoader, PageError } from './components/PageState.tsx';
import { RouteErrorBoundary } from './components/RouteErrorBoundary.tsx';
import { Landing } from './pages/Landing.tsx';
import { AcceptInvitationPage } from './pages/AcceptInvitation.tsx';
import { LoginPage, SignupPage, returnPath } from './pages/Auth.tsx';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/Password.tsx';
import { VerifyEmailPage } from './pages/VerifyEmail.tsx';
import { NotFound } from './pages/NotFound.tsx';
import { ProjectOverview } from './pages/ProjectOverview.tsx';
import { ProjectsPage } from './pages/Projects.tsx';
import { useAccount } from './features/auth/api/get-session.ts';

/**
 * A page loaded when it is first opened: the first screen (sign-in, projects, a project's
 * overview) downloads only its own code; the content manager's editors and the charts are the
 * heaviest.
 */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): ComponentType {
  const Page = lazy(async (): Promise<{ default: ComponentType }> => ({ default: (await load())[name] }));
  return function LazyPage() {
    return <Suspense fallback={<PageLoader />}><Page /></Suspense>;
  };
}

const ContentManagerPage = lazyPage(() => import('./pages/content/ContentManager.tsx'), 'ContentManagerPage');
const ApiTokensPage = lazyPage(() => import('./pages/ApiTokens.tsx'), 'ApiTokensPage');
const WebhooksPage = lazyPage(() => import('./pages/Webhooks.tsx'), 'WebhooksPage');
const EndUsersPage = lazyPage(() => import('./pages/EndUsers.tsx'), 'EndUsersPage');
const MediaLibraryPage = lazyPage(() => import('./pages/MediaLibrary.tsx'), 'MediaLibraryPage');
const ReleasesPage = lazyPage(() => import('./pages/Releases.tsx'), 'ReleasesPage');
const ReleasePage = lazyPage(() => import('./pages/Release.tsx'), 'ReleasePage');
const UsagePage = lazyPage(() => import('./pages/Usage.tsx'), 'UsagePage');
const LocalesPage = lazyPage(() => import('./pages/Locales.tsx'), 'LocalesPage');
const BillingPage = lazyPage(() => import('./pages/Billing.tsx'), 'BillingPage');
const ModelBuilderPage = lazyPage(() => import('./pages/ModelBuilder.tsx'), 'ModelBuilderPage');
const RolesPage = lazyPage(() => import('./pages/Roles.tsx'), 'RolesPage');
const SettingsPage = lazyPage(() => import('./pages/Settings.tsx'), 'SettingsPage');
const BackupsPage = lazyPage(() => import('./pages/Backups.tsx'), 'BackupsPage');
const AccountPage = lazyPage(() => import('./pages/Account.tsx'), 'AccountPage');
const TeamPage = lazyPage(() => import('./pages/Team.tsx'), 'TeamPage');
const AuditLogPage = lazyPage(() => import('./pages/AuditLog.tsx'), 'AuditLogPage');
const ApiReferencePage = lazyPage(() => import('./pages/ApiReference.tsx'), 'ApiReferencePage');

function RequireAccount({ children }: { children: ReactNode }) {
  const me = useAccount();
  const location = useLocation();
  if (me.isPending) return <PageLoader />;
  if (me.isError) return <PageError error={me.error} />;
  if (!me.data) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  return <>{children}</>;
}

/** Visitor-only pages send a signed-in account to its projects (or where it was going). */
function VisitorOnly({ children }: { children: ReactNode }) {
  const me = useAccount();
  const location = useLocation();
  if (me.isPending) return <PageLoader />;
  if (me.data) return <Navigate to={returnPath(location.state) ?? '/projects'} replace />;
  return <>{children}</>;
}

export function App() {
  return (
    <Routes>
      <Route path="/" element={<RouteErrorBoundary><VisitorOnly><Landing /></VisitorOnly></RouteErrorBoundary>} />
      <Route path="/login" element={<RouteErrorBoundary><VisitorOnly><LoginPage /></VisitorOnly></RouteErrorBoundary>} />
      <Route path="/signup" element={<RouteErrorBoundary><VisitorOnly><SignupPage /></VisitorOnly></RouteErrorBoundary>} />
      <Route path="/forgot-password" element={<RouteErrorBoundary><VisitorOnly><ForgotPasswordPage /></VisitorOnly></RouteErrorBoundary>} />
      {/* The pages of mailed links work signed in or not. */}
      <Route path="/reset-password" element={<RouteErrorBoundary><ResetPasswordPage /></RouteErrorBoundary>} />
      <Route path="/verify-email" element={<RouteErrorBoundary><VerifyEmailPage /></RouteErrorBoundary>} />
      <Route path="/invitations/accept" element={<RouteErrorBoundary><AcceptInvitationPage /></RouteErrorBoundary>} />
      <Route path="/docs/api" element={<RouteErrorBoundary><ApiReferencePage /></RouteErrorBoundary>} />
      <Route element={<RequireAccount><Layout /></RequireAccount>}>
        <Route path="/projects" element={<RouteErrorBoundary><ProjectsPage /></RouteErrorBoundary>} />
        <Route path="/projects/:slug" element={<RouteErrorBoundary><ProjectLayout /></RouteErrorBoundary>}>
          <Route index element={<RouteErrorBoundary><ProjectOverview /></RouteErrorBoundary>} />
          <Route path="content/*" element={<RouteErrorBoundary><ContentManagerPage /></RouteErrorBoundary>} />
          <Route path="releases" element={<RouteErrorBoundary><ReleasesPage /></RouteErrorBoundary>} />
          <Route path="releases/:releaseId" element={<RouteErrorBoundary><ReleasePage /></RouteErrorBoundary>} />
          <Route path="media" element={<RouteErrorBoundary><MediaLibraryPage /></RouteErrorBoundary>} />
          <Route path="model" element={<RouteErrorBoundary><ModelBuilderPage /></RouteErrorBoundary>} />
          <Route path="end-users" element={<RouteErrorBoundary><EndUsersPage /></RouteErrorBoundary>} />
          <Route path="usage" element={<RouteErrorBoundary><UsagePage /></RouteErrorBoundary>} />
          <Route path="api-tokens" element={<RouteErrorBoundary><ApiTokensPage /></RouteErrorBoundary>} />
          <Route path="webhooks" element={<RouteErrorBoundary><WebhooksPage /></RouteErrorBoundary>} />
          <Route path="roles" element={<RouteErrorBoundary><RolesPage /></RouteErrorBoundary>} />
          <Route path="locales" element={<RouteErrorBoundary><LocalesPage /></RouteErrorBoundary>} />
          <Route path="team" element={<RouteErrorBoundary><TeamPage /></RouteErrorBoundary>} />
          <Route path="billing" element={<RouteErrorBoundary><BillingPage /></RouteErrorBoundary>} />
          <Route path="audit-log" element={<RouteErrorBoundary><AuditLogPage /></RouteErrorBoundary>} />
          <Route path="settings" element={<RouteErrorBoundary><SettingsLayout /></RouteErrorBoundary>}>
            <Route index element={<RouteErrorBoundary><SettingsPage /></RouteErrorBoundary>} />
            <Route path="backups" element={<RouteErrorBoundary><BackupsPage /></RouteErrorBoundary>} />
          </Route>
        </Route>
        <Route path="/account" element={<RouteErrorBoundary><AccountPage /></RouteErrorBoundary>} />
      </Route>
      <Route path="*" element={<RouteErrorBoundary><NotFound /></RouteErrorBoundary>} />
    </Routes>
  );
}
