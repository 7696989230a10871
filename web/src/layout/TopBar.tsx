// The top bar of spec/02 §2.9: greeting, the company's active-until date for admins, notifications
// (with sound and volume), announcements, internal chats, language (saved on the user too), theme,
// refresh, and the account menu (profile modal, logout).
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isCompanyAdmin, planAllows, type Language } from '@zapdesk/sync';
import { api } from '../api/client.ts';
import { formatDate } from '../forms/format.ts';
import { useSession, useUser } from '../session/SessionProvider.tsx';
import { useSyncedList } from '../sync/use-synced.ts';
import { useTheme } from '../theme/theme.ts';
import { IconButton } from '../ui/Button.tsx';
import { Icon } from '../ui/Icon.tsx';
import { LanguageMenu } from '../ui/LanguageMenu.tsx';
import { Menu } from '../ui/Menu.tsx';
import { toastError } from '../ui/toast/toast-error.ts';
import { AnnouncementsPopover } from './topbar/AnnouncementsPopover.tsx';
import { ChatsPopover } from './topbar/ChatsPopover.tsx';
import { NotificationsPopover } from './topbar/NotificationsPopover.tsx';

// The profile modal is the users page's modal on the signed-in user: loaded only when opened.
const UserModal = lazy(() => import('../pages/users/UserModal.tsx').then((m) => ({ default: m.UserModal })));

type Props = { onMenu: () => void; showMenuButton: boolean };

export function TopBar({ onMenu, showMenuButton }: Props) {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const { logout, updateUser, flags } = useSession();
  const [theme, toggleTheme] = useTheme();
  const [profileOpen, setProfileOpen] = useState(false);
  // The synced company row moves when a payment lands; the session's copy until it is read.
  const dueDate = useSyncedList('company')?.[0]?.dueDate ?? user.company.dueDate;

  const saveLanguage = (lang: Language) => {
    api.post(`/users/set-language/${lang}`).then(() => updateUser({ language: lang }), toastError);
  };

  return (
    <header className="flex h-14 shrink-0 items-center gap-0.5 border-b border-line bg-surface px-2 sm:gap-2 sm:px-4">
      {showMenuButton && <IconButton icon="menu" label={t('layout.openMenu')} onClick={onMenu} />}
      <div className="min-w-0 flex-1 px-1">
        <p className="truncate text-sm">
          <span className="font-semibold">{t('layout.greeting', { name: user.name.split(' ')[0] })}</span>{' '}
          <span className="hidden text-muted md:inline">{t('layout.welcome', { company: user.company.name })}</span>
        </p>
        {isCompanyAdmin(user) && dueDate && (
          <p className="truncate text-xs text-muted" data-testid="active-until">
            {t('layout.activeUntil', { date: formatDate(dueDate, i18n.language) })}
          </p>
        )}
      </div>
      <NotificationsPopover />
      <AnnouncementsPopover />
      {planAllows(flags ?? null, 'internalChat') && <ChatsPopover />}
      <LanguageMenu compact onChange={saveLanguage} />
      <IconButton icon={theme === 'dark' ? 'sun' : 'moon'} label={theme === 'dark' ? t('layout.lightTheme') : t('layout.darkTheme')} onClick={toggleTheme} />
      {/* Phones reload with a pull; the space goes to the greeting. (A class on IconButton would fight its own display.) */}
      <span className="hidden sm:block">
        <IconButton icon="refresh" label={t('layout.refresh')} onClick={() => location.reload()} />
      </span>
      <Menu
        label={t('layout.account')}
        triggerClassName="ml-1 flex size-9 items-center justify-center rounded-full bg-brand-soft text-sm font-semibold text-brand hover:ring-2 hover:ring-brand/30"
        trigger={<span aria-hidden="true">{initials(user.name)}</span>}
        entries={[
          { key: 'profile', label: t('layout.profile'), icon: <Icon name="user" className="size-4 text-muted" />, onSelect: () => setProfileOpen(true) },
          { key: 'logout', label: t('layout.logout'), icon: <Icon name="logout" className="size-4 text-muted" />, onSelect: () => void logout() },
        ]}
      />
      {profileOpen && (
        <Suspense>
          <UserModal
            open
            user={user}
            title={t('layout.profile')}
            onClose={() => setProfileOpen(false)}
            onSaved={(saved) => {
              updateUser({ name: saved.name, email: saved.email, profile: saved.profile, queues: saved.queues, allTicket: saved.allTicket, showNoQueue: saved.showNoQueue, whatsappId: saved.whatsappId });
              setProfileOpen(false);
            }}
          />
        </Suspense>
      )}
    </header>
  );
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts.at(-1)?.[0] ?? '') : '')).toUpperCase() || '?';
}
