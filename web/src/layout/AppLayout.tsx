// The signed-in frame: drawer, top bar and the page, inside the user's sync session.
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { SyncProvider } from '../sync/SyncProvider.tsx';
import { Drawer } from './Drawer.tsx';
import { SubscriptionBanner } from './SubscriptionBanner.tsx';
import { TopBar } from './TopBar.tsx';
import { PHONE_QUERY, useMedia, WIDE_QUERY } from './use-media.ts';

export function Component() {
  const { t } = useTranslation();
  const wide = useMedia(WIDE_QUERY);
  const phone = useMedia(PHONE_QUERY);
  const [open, setOpen] = useState(wide);
  const close = useCallback(() => setOpen(false), []);
  const toggle = useCallback(() => setOpen((o) => !o), []);

  return (
    <SyncProvider>
      <div className="flex h-full">
        <a href="#content" className="sr-only z-[60] rounded bg-surface px-3 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
          {t('layout.skipToContent')}
        </a>
        <Drawer open={open} overlay={phone} onClose={close} onToggle={toggle} />
        <div className="flex min-w-0 flex-1 flex-col">
          <TopBar onMenu={toggle} showMenuButton={phone} />
          <SubscriptionBanner />
          <main id="content" tabIndex={-1} className="flex-1 overflow-y-auto focus:outline-none">
            <Outlet />
          </main>
        </div>
      </div>
    </SyncProvider>
  );
}
