// Routes: the public pages for visitors, everything else behind a session.
import type { ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/Layout.tsx';
import { ProjectLayout } from './components/ProjectLayout.tsx';
import { ApiTokensPage } from './pages/ApiTokens.tsx';
import { LocalesPage } from './pages/Locales.tsx';
import { RolesPage } from './pages/Roles.tsx';
import { SettingsPage } from './pages/Settings.tsx';
import { PageLoader, PageError } from './components/PageState.tsx';
import { AccountPage } from './pages/Account.tsx';
import { Landing } from './pages/Landing.tsx';
import { LoginPage, SignupPage } from './pages/Auth.tsx';
import { NotFound } from './pages/NotFound.tsx';
import { ProjectOverview } from './pages/ProjectOverview.tsx';
import { ProjectsPage } from './pages/Projects.tsx';
import { useAccount } from './session.ts';

function RequireAccount({ children }: { children: ReactNode }) {
  const me = useAccount();
  const location = useLocation();
  if (me.isPending) return <PageLoader />;
  if (me.isError) return <PageError error={me.error} />;
  if (!me.data) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <>{children}</>;
}

/** Visitor-only pages send a signed-in account to its projects. */
function VisitorOnly({ children }: { children: ReactNode }) {
  const me = useAccount();
  if (me.isPending) return <PageLoader />;
  if (me.data) return <Navigate to="/projects" replace />;
  return <>{children}</>;
}

export function App() {
  return (
    <Routes>
      <Route path="/" element={<VisitorOnly><Landing /></VisitorOnly>} />
      <Route path="/login" element={<VisitorOnly><LoginPage /></VisitorOnly>} />
      <Route path="/signup" element={<VisitorOnly><SignupPage /></VisitorOnly>} />
      <Route element={<RequireAccount><Layout /></RequireAccount>}>
        <Route path="/projects" element={<ProjectsPage />} />
        <Route path="/projects/:slug" element={<ProjectLayout />}>
          <Route index element={<ProjectOverview />} />
          <Route path="api-tokens" element={<ApiTokensPage />} />
          <Route path="roles" element={<RolesPage />} />
          <Route path="locales" element={<LocalesPage />} />
          <Route path="settings" element={<SettingsPage />} />
        </Route>
        <Route path="/account" element={<AccountPage />} />
      </Route>
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
