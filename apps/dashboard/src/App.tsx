// Routes: the public pages for visitors, the pages of mailed links, everything else behind a session.
import type { ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/Layout.tsx';
import { ProjectLayout } from './components/ProjectLayout.tsx';
import { ApiTokensPage } from './pages/ApiTokens.tsx';
import { LocalesPage } from './pages/Locales.tsx';
import { BillingPage } from './pages/Billing.tsx';
import { ModelBuilderPage } from './pages/ModelBuilder.tsx';
import { RolesPage } from './pages/Roles.tsx';
import { SettingsPage } from './pages/Settings.tsx';
import { PageLoader, PageError } from './components/PageState.tsx';
import { AccountPage } from './pages/Account.tsx';
import { Landing } from './pages/Landing.tsx';
import { AcceptInvitationPage } from './pages/AcceptInvitation.tsx';
import { LoginPage, SignupPage, returnPath } from './pages/Auth.tsx';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/Password.tsx';
import { TeamPage } from './pages/Team.tsx';
import { VerifyEmailPage } from './pages/VerifyEmail.tsx';
import { NotFound } from './pages/NotFound.tsx';
import { ProjectOverview } from './pages/ProjectOverview.tsx';
import { ProjectsPage } from './pages/Projects.tsx';
import { useAccount } from './session.ts';

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
          <Route path="model" element={<ModelBuilderPage />} />
          <Route path="api-tokens" element={<ApiTokensPage />} />
          <Route path="roles" element={<RolesPage />} />
          <Route path="locales" element={<LocalesPage />} />
          <Route path="team" element={<TeamPage />} />
          <Route path="billing" element={<BillingPage />} />
          <Route path="settings" element={<SettingsPage />} />
        </Route>
        <Route path="/account" element={<AccountPage />} />
      </Route>
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
