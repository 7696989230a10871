// Route guards of spec/01 §2: public pages send a signed-in user to /, private pages send an
// anonymous one to /login, and gated pages (role, super flag, plan flag, cshow) go home with a toast.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { gateOf, homePath, routeAccess } from '../navigation/menu.ts';
import { useSession } from '../session/SessionProvider.tsx';
import { toast } from '../ui/toast/store.ts';
import { Splash } from '../ui/Splash.tsx';

export function PublicOnly() {
  const { status } = useSession();
  if (status === 'loading') return <Splash />;
  if (status === 'authenticated') return <Navigate to="/" replace />;
  return <Outlet />;
}

export function RequireAuth() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <Splash />;
  if (status === 'anonymous') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** spec/03 §2, §9: a page the plan lacks shows its refusal toast and leaves after 1 s. */
export const PLAN_DENIAL_REDIRECT_MS = 1000;

/**
 * Wraps the private pages: a page the user may not open redirects to their home with a toast (a
 * page the plan lacks after PLAN_DENIAL_REDIRECT_MS, the page itself never shown meanwhile).
 */
export function RequireAccess() {
  const { user, flags, cshow } = useSession();
  const { pathname, key } = useLocation();
  const { t } = useTranslation();
  const gate = gateOf(pathname);
  // Plan-gated pages wait for the plan flags, so a slow plan request never bounces a permitted user.
  const waiting = (gate.feature !== undefined || gate.campaigns === true) && flags === undefined;
  const access = user && !waiting ? routeAccess(pathname, user, flags ?? null, cshow) : 'allowed';
  const denied = access === 'forbidden-role' || access === 'forbidden-plan';
  const warned = useRef<string | null>(null);
  const [leaving, setLeaving] = useState<string | null>(null);
  const planDenied = access === 'forbidden-plan';

  useEffect(() => {
    if (!planDenied) return;
    const timer = setTimeout(() => setLeaving(key), PLAN_DENIAL_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [planDenied, key]);

  useEffect(() => {
    if (denied && warned.current !== pathname) {
      warned.current = pathname;
      // The super-admin's pages (announcements) say so with an info toast (spec/02 §2.19, §8).
      if (gate.super && !user?.super) toast.info(t('common.superOnly'));
      else toast.error(t(planDenied && gate.planDenied ? gate.planDenied : 'common.noPagePermission'));
    }
  }, [denied, pathname, t]);

  if (waiting || (planDenied && leaving !== key)) return <Splash inline />;
  if (denied && user) return <Navigate to={homePath(user, flags ?? null, cshow)} replace />;
  return <Outlet />;
}

/** "/" goes to the dashboard once it exists; until then, to the user's first page. */
export function HomeRedirect() {
  const { user, flags, cshow } = useSession();
  if (!user) return null;
  const home = homePath(user, flags ?? null, cshow);
  return home === '/' ? null : <Navigate to={home} replace />;
}
