// The signed-in state of the app (spec/01 §4): boot from the stored token through one refresh, login,
// logout, forced logout on 401 or a failed refresh, and the company's plan flags for gating.
import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { PlanFlags, SessionAnswer, SessionUser } from '@zapdesk/sync';
import { api, setLogoutHandler } from '../api/client.ts';
import { i18next } from '../i18n/index.ts';
import { toast } from '../ui/toast/store.ts';
import { clearAllStorage, readStored, readStoredJson, rememberSignOut } from './storage.ts';
import { campaignsFlag, clearSessionStorage, storeSession } from './session-storage.ts';
import type { SessionFlags } from './types.ts';

type Status = 'loading' | 'anonymous' | 'authenticated';

export type Session = {
  status: Status;
  user: SessionUser | null;
  flags: SessionFlags;
  cshow: boolean;
  /** Signs in; rejects with the AppError so the page can word it. */
  login(email: string, password: string): Promise<SessionAnswer>;
  logout(): Promise<void>;
  /**
   * The server ended the session on purpose (`reason`: `replaced` by a login elsewhere, a logout
   * in another tab, a new password…), as the socket's `auth` event or a refused request says: toast
   * why, wipe local storage and reload after 1 s; the login page then says it once more. Once per
   * session, and never for this tab's own `logout()`.
   */
  endSession(reason: string): void;
  updateUser(patch: Partial<SessionUser>): void;
};

const SessionContext = createContext<Session | null>(null);

let booting: Promise<SessionAnswer> | null = null;

/**
 * What the user reads when the server ended their session: a login elsewhere is "accessed on another
 * computer", a company the super-admin deactivated says so; any other reason, that the session ended.
 */
function sessionEndedMessage(reason: string): string {
  return i18next.t(reason === 'replaced' ? 'layout.accessedElsewhere' : reason === 'company-inactive' ? 'layout.companyInactive' : 'layout.sessionEnded');
}

/**
 * One refresh per page load, however often the effect runs (StrictMode runs it twice): refresh
 * tokens rotate, and presenting a spent one again revokes the whole session.
 */
function bootRefresh(): Promise<SessionAnswer> {
  booting ??= api.post<SessionAnswer>('/auth/refresh_token').then((session) => {
    api.setToken(session.token);
    return session;
  });
  return booting;
}

export function useSession(): Session {
  const session = use(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The signed-in user; only for components under the private routes. */
export function useUser(): SessionUser {
  const { user } = useSession();
  if (!user) throw new Error('useUser without a signed-in user');
  return user;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<Status>(() => (readStoredJson<string>('token') ? 'loading' : 'anonymous'));
  const [user, setUser] = useState<SessionUser | null>(null);
  const [flags, setFlags] = useState<SessionFlags>(undefined);
  const [cshow, setCshow] = useState(() => readStored('cshow') !== null);

  // The session's end was told already (once), or it is our own sign-out (see logout).
  const ended = useRef(false);

  const establish = useCallback((session: SessionAnswer) => {
    ended.current = false;
    storeSession(session);
    setUser(session.user);
    setCshow(campaignsFlag(session.user.company.settings));
    setStatus('authenticated');
  }, []);

  const drop = useCallback(() => {
    api.setToken(null);
    clearSessionStorage();
    setUser(null);
    setFlags(undefined);
    setCshow(false);
    setStatus('anonymous');
  }, []);

  // The socket's event and a refused request may both say it: the first one is told, once.
  const endSession = useCallback((reason: string) => {
    if (ended.current) return;
    ended.current = true;
    const message = sessionEndedMessage(reason);
    toast.warning(message);
    clearAllStorage();
    rememberSignOut(message);
    setTimeout(() => location.reload(), 1000);
  }, []);

  // A request refused because the session ended: signed in, as the socket's event would; at boot
  // (the stored session had ended meanwhile) the login page says why, without the reload.
  const statusRef = useRef(status);
  statusRef.current = status;
  useEffect(
    () =>
      setLogoutHandler((err) => {
        const reason = typeof err.details?.reason === 'string' ? err.details.reason : undefined;
        if (reason && statusRef.current === 'authenticated') return endSession(reason);
        if (reason) rememberSignOut(sessionEndedMessage(reason));
        drop();
      }),
    [drop, endSession],
  );

  // Boot: the access token may be stale, and the user object is not stored, so refresh once.
  useEffect(() => {
    if (status !== 'loading') return;
    bootRefresh().then(establish, drop);
  }, [status, establish, drop]);

  const companyId = user?.companyId;
  useEffect(() => {
    if (companyId === undefined) return;
    let live = true;
    api.get<PlanFlags>(`/companies/listPlan/${companyId}`).then(
      (plan) => live && setFlags(plan),
      () => live && setFlags(null),
    );
    return () => {
      live = false;
    };
  }, [companyId]);

  const login = useCallback(
    async (email: string, password: string) => {
      const session = await api.login(email, password);
      establish(session);
      return session;
    },
    [establish],
  );

  const logout = useCallback(async () => {
    // The server tells this session's socket that it ended, which may come before its answer here:
    // a sign-out of one's own is not an ended session (no toast, no reload).
    ended.current = true;
    try {
      await api.logout();
    } catch {
      // Logging out locally matters more than telling the server.
    }
    drop();
  }, [drop]);

  const updateUser = useCallback((patch: Partial<SessionUser>) => setUser((u) => (u ? { ...u, ...patch } : u)), []);

  const value = useMemo<Session>(
    () => ({ status, user, flags, cshow, login, logout, endSession, updateUser }),
    [status, user, flags, cshow, login, logout, endSession, updateUser],
  );
  return <SessionContext value={value}>{children}</SessionContext>;
}
