// Routes: the public pages for visitors, the pages of mailed links, everything else behind a session.
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/Layout.tsx';
import { ProjectLayout } from './components/ProjectLayout.tsx';
import { SettingsLayout } from './components/SettingsLayout.tsx';
import { PageLoader, PageError } from './components/PageState.tsx';
import { Landing } from './pages/Landing.tsx';
import { AcceptInvitationPage } from './pages/AcceptInvitation.tsx';
import { LoginPage, SignupPage, returnPath } from './pages/Auth.tsx';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/Password.tsx';
import { VerifyEmailPage } from './pages/VerifyEmail.tsx';
import { NotFound } from './pages/NotFound.tsx';
import { ProjectOverview } from './pages/ProjectOverview.tsx';
import { ProjectsPage } from './pages/Projects.tsx';
import { useAccount } from './session.ts';

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
      <Route path="/" element={<VisitorOnly><Landing /></VisitorOnly>} />
      <Route path="/login" element={<VisitorOnly><LoginPage /></VisitorOnly>} />
      <Route path="/signup" element={<VisitorOnly><SignupPage /></VisitorOnly>} />
      <Route path="/forgot-password" element={<VisitorOnly><ForgotPasswordPage /></VisitorOnly>} />
      {/* The pages of mailed links work signed in or not. */}
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route path="/verify-email" element={<VerifyEmailPage />} />
      <Route path="/invitations/accept" element={<AcceptInvitationPage />} />
      <Route element={<RequireAccount><Layout /></RequireAccount>}>
        <Route path="/projects" element={<ProjectsPage />} />
        <Route path="/projects/:slug" element={<ProjectLayout />}>
          <Route index element={<ProjectOverview />} />
          <Route path="content/*" element={<ContentManagerPage />} />
          <Route path="releases" element={<ReleasesPage />} />
          <Route path="releases/:releaseId" element={<ReleasePage />} />
          <Route path="media" element={<MediaLibraryPage />} />
          <Route path="model" element={<ModelBuilderPage />} />
          <Route path="end-users" element={<EndUsersPage />} />
          <Route path="usage" element={<UsagePage />} />
          <Route path="api-tokens" element={<ApiTokensPage />} />
          <Route path="webhooks" element={<WebhooksPage />} />
          <Route path="roles" element={<RolesPage />} />
          <Route path="locales" element={<LocalesPage />} />
          <Route path="team" element={<TeamPage />} />
          <Route path="billing" element={<BillingPage />} />
          <Route path="audit-log" element={<AuditLogPage />} />
          <Route path="settings" element={<SettingsLayout />}>
            <Route index element={<SettingsPage />} />
            <Route path="backups" element={<BackupsPage />} />
          </Route>
        </Route>
        <Route path="/account" element={<AccountPage />} />
      </Route>
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
