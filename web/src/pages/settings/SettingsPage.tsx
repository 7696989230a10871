// /settings (admins): the Options tab; Companies, Plans and Help tabs for the super-admin (spec/01 §2, §6).
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Setting } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useResource } from '../../hooks/use-resource.ts';
import { useUser } from '../../session/SessionProvider.tsx';
import { Page } from '../../ui/Page.tsx';
import { Splash } from '../../ui/Splash.tsx';
import { Tabs, type TabDef } from '../../ui/Tabs.tsx';
import { OptionsTab } from './OptionsTab.tsx';
import { SchedulesTab } from './SchedulesTab.tsx';

// The super-admin's tabs are their own chunks: most admins never load them.
const CompaniesTab = lazy(() => import('./companies/CompaniesTab.tsx'));
const PlansTab = lazy(() => import('./plans/PlansTab.tsx'));
const HelpsTab = lazy(() => import('./helps/HelpsTab.tsx'));

type TabKey = 'options' | 'schedules' | 'companies' | 'plans' | 'help';

export function Component() {
  const { t } = useTranslation();
  const user = useUser();
  const [tab, setTab] = useState<TabKey>('options');
  const settings = useResource(() => api.get<Setting[]>('/settings'), []);
  // Company-wide business hours matter only when the hours are managed per company.
  const companyHours = settings.data?.some((s) => s.key === 'scheduleType' && s.value === 'company') ?? false;
  const tabs: TabDef<TabKey>[] = [
    { key: 'options', label: t('settings.tabs.options') },
    ...(companyHours ? ([{ key: 'schedules', label: t('settings.tabs.schedules') }] as const) : []),
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
          {tab === 'options' && <OptionsTab settings={settings} />}
          {tab === 'schedules' && companyHours && <SchedulesTab />}
          {tab === 'companies' && <CompaniesTab />}
          {tab === 'plans' && <PlansTab />}
          {tab === 'help' && <HelpsTab />}
        </Suspense>
      </div>
    </Page>
  );
}
