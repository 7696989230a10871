// The left drawer (spec/01 §2): 240 px; a persistent panel that collapses to an icon rail from 600 px
// up, an overlay below 600 px. Items come from visibleMenu(), so gating lives in one tested place.
// Badges: "!" on Connections when one needs attention, the unread internal chat count on Internal chat.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { APP_VERSION } from '../app/version.ts';
import { isGroup, itemMatches, visibleMenu, type MenuGroup, type MenuItem } from '../navigation/menu.ts';
import { useSession, useUser } from '../session/SessionProvider.tsx';
import { IconButton } from '../ui/Button.tsx';
import { Icon } from '../ui/Icon.tsx';
import { Logo } from '../ui/Logo.tsx';
import { useConnectionAttention, useUnreadChatCount } from './use-badges.ts';

type DrawerProps = { open: boolean; overlay: boolean; onClose: () => void; onToggle: () => void };

type Badges = { connections: boolean; chats: number };

type Navigate = { onNavigate?: () => void };

function Item({ item, collapsed, nested, badges, onNavigate }: { item: MenuItem; collapsed: boolean; nested?: boolean; badges: Badges } & Navigate) {
  const { t } = useTranslation();
  const badge =
    item.badge === 'connections' && badges.connections ? { text: '!', label: t('menu.needsAttention') } : item.badge === 'chats' && badges.chats > 0 ? { text: String(badges.chats), label: t('menu.unread') } : null;
  const label = badge ? `${t(item.labelKey)} (${badge.label})` : t(item.labelKey);
  const { pathname } = useLocation();
  const active = itemMatches(item, pathname);
  return (
    <Link
      to={item.path}
      onClick={onNavigate}
      title={collapsed ? label : undefined}
      aria-label={collapsed || badge ? label : undefined}
      aria-current={active ? 'page' : undefined}
      className={`group flex h-9 items-center gap-3 rounded-md text-[13.5px] transition-colors ${collapsed ? 'justify-center px-0' : nested ? 'pr-2.5 pl-9' : 'px-2.5'} ${
        active ? 'bg-brand-soft font-medium text-brand' : 'text-muted hover:bg-raised hover:text-ink'
      }`}
    >
      <span className="relative shrink-0">
        {(!nested || collapsed) && <Icon name={item.icon} className="size-[18px]" />}
        {badge && collapsed && <span className="absolute -top-1 -right-1.5 size-2 rounded-full bg-danger" aria-hidden="true" />}
      </span>
      {!collapsed && <span className="flex-1 truncate">{t(item.labelKey)}</span>}
      {!collapsed && badge && (
        <span className="min-w-5 rounded-full bg-danger px-1.5 text-center text-[11px] leading-5 font-semibold text-white" aria-hidden="true" data-testid={`badge-${item.badge}`}>
          {badge.text}
        </span>
      )}
    </Link>
  );
}

function Group({ group, collapsed, badges, onNavigate }: { group: MenuGroup; collapsed: boolean; badges: Badges } & Navigate) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const active = group.items.some((i) => itemMatches(i, pathname));
  const [open, setOpen] = useState(active);
  // Arriving at one of its pages opens the group (it may have been closed, or the drawer drawn first elsewhere).
  useEffect(() => {
    if (active) setOpen(true);
  }, [active]);
  if (collapsed) return group.items.map((i) => <Item key={i.path} item={i} collapsed badges={badges} onNavigate={onNavigate} />);
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="flex h-9 w-full items-center gap-3 rounded-md px-2.5 text-[13.5px] text-muted hover:bg-raised hover:text-ink"
      >
        <Icon name={group.icon} className="size-[18px]" />
        <span className="flex-1 text-left">{t(group.labelKey)}</span>
        <Icon name="chevronDown" className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} />
      </button>
      {open && group.items.map((i) => <Item key={i.path} item={i} collapsed={false} nested badges={badges} onNavigate={onNavigate} />)}
    </div>
  );
}

export function Drawer({ open, overlay, onClose, onToggle }: DrawerProps) {
  const { t } = useTranslation();
  const user = useUser();
  const { flags, cshow } = useSession();
  const { pathname } = useLocation();
  const sections = visibleMenu(user, flags ?? null, cshow);
  const collapsed = !open && !overlay;
  const badges: Badges = { connections: useConnectionAttention(sections.some((s) => s.entries.some((e) => !isGroup(e) && e.badge === 'connections'))), chats: useUnreadChatCount() };

  // The overlay drawer (below 600 px) is temporary: it closes as soon as a page is chosen (the page
  // it is on included), after any other navigation, on Escape, and when the window narrows into it
  // (a drawer left open on a wider window would otherwise cover the page).
  const onNavigate = overlay ? onClose : undefined;
  useEffect(() => {
    if (overlay) onClose();
  }, [pathname, overlay]); // on navigation or on becoming an overlay only: onClose changing must not close it
  useEffect(() => {
    if (!overlay || !open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [overlay, open, onClose]);

  if (overlay && !open) return null;
  return (
    <>
      {overlay && <div className="fixed inset-0 z-40 bg-slate-950/40" onClick={onClose} aria-hidden="true" />}
      <aside
        aria-label={t('menu.navigation')}
        className={`flex shrink-0 flex-col border-r border-line bg-surface transition-[width] duration-200 ${
          overlay ? 'fixed inset-y-0 left-0 z-50 w-60 shadow-xl' : collapsed ? 'w-16' : 'w-60'
        }`}
      >
        <div className={`flex h-14 items-center border-b border-line ${collapsed ? 'justify-center' : 'justify-between pr-2 pl-4'}`}>
          {!collapsed && <Logo />}
          <IconButton icon={collapsed ? 'menu' : 'chevronLeft'} label={collapsed ? t('layout.openMenu') : t('layout.collapseMenu')} onClick={onToggle} />
        </div>
        <nav className="flex-1 space-y-5 overflow-y-auto px-2.5 py-4">
          {sections.map((section) => (
            <div key={section.labelKey ?? 'main'} className="space-y-0.5">
              {section.labelKey &&
                (collapsed ? (
                  <hr className="mx-2 mb-2 border-line" />
                ) : (
                  <p className="px-2.5 pb-1.5 text-[11px] font-semibold tracking-wider text-muted/80 uppercase">{t(section.labelKey)}</p>
                ))}
              {section.entries.map((e) => (isGroup(e) ? (
                  <Group key={e.labelKey} group={e} collapsed={collapsed} badges={badges} onNavigate={onNavigate} />
                ) : (
                  <Item key={e.path} item={e} collapsed={collapsed} badges={badges} onNavigate={onNavigate} />
                )))}
            </div>
          ))}
        </nav>
        <p className={`border-t border-line py-3 text-[11px] text-muted ${collapsed ? 'text-center' : 'px-4'}`}>{collapsed ? APP_VERSION : t('common.version', { version: APP_VERSION })}</p>
      </aside>
    </>
  );
}
