// /settings (admins): the Options tab; Companies, Plans and Help tabs for the super-admin (spec/01 §2, §6).
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUser } from '../../session/SessionProvider.tsx';
import { Page } from '../../ui/Page.tsx';
import { Splash } from '../../ui/Splash.tsx';
import { Tabs, type TabDef } from '../../ui/Tabs.tsx';
import { OptionsTab } from './OptionsTab.tsx';

// The super-admin's tabs are their own chunks: most admins never load them.
const CompaniesTab = lazy(() => import('./companies/CompaniesTab.tsx'));
const PlansTab = lazy(() => import('./plans/PlansTab.tsx'));
const HelpsTab = lazy(() => import('./helps/HelpsTab.tsx'));

type TabKey = 'options' | 'companies' | 'plans' | 'help';

export function Component() {
  const { t } = useTranslation();
  const user = useUser();
  const [tab, setTab] = useState<TabKey>('options');
  const tabs: TabDef<TabKey>[] = [
    { key: 'options', label: t('settings.tabs.options') },
    ...(user.super
      ? ([
          { key: 'companies', label: t('settings.tabs.companies') },
          { key: 'plans', label: t('settings.tabs.plans') },
          { key: 'help', label: t('settings.tabs.help') },
        ] as const)
      : []),
  ];

  return (
    <Page title={t('settings.title')}>
      <Tabs tabs={tabs} active={tab} onChange={setTab} label={t('settings.title')} />
      <div role="tabpanel">
        <Suspense fallback={<Splash inline />}>
          {tab === 'options' && <OptionsTab />}
          {tab === 'companies' && <CompaniesTab />}
          {tab === 'plans' && <PlansTab />}
          {tab === 'help' && <HelpsTab />}
        </Suspense>
      </div>
    </Page>
  );
}
