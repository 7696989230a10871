// The company's options (spec/01 §3, §5): each key with its allowed values; saved on change.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SETTING_KEYS, SETTING_VALUES, type Setting, type SettingKey } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import type { Resource } from '../../hooks/use-resource.ts';
import { SelectField } from '../../ui/Field.tsx';
import { Card } from '../../ui/Page.tsx';
import { Splash } from '../../ui/Splash.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';

/** `settings` is owned by the page, which also shows the Schedules tab by scheduleType. */
export function OptionsTab({ settings }: { settings: Resource<Setting[]> }) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState<SettingKey | null>(null);

  if (!settings.data) return <Splash inline />;
  const valueOf = (key: SettingKey) => settings.data?.find((s) => s.key === key)?.value ?? '';

  const save = async (key: SettingKey, value: string) => {
    const previous = valueOf(key);
    // Shown at once; put back if the server refuses.
    settings.set((list) => list?.map((s) => (s.key === key ? { ...s, value } : s)));
    setSaving(key);
    try {
      await api.put(`/settings/${key}`, { key, value });
      toast.success(t('settings.optionUpdated'));
    } catch (err) {
      settings.set((list) => list?.map((s) => (s.key === key ? { ...s, value: previous } : s)));
      toastError(err);
    } finally {
      setSaving(null);
    }
  };

  return (
    <Card className="p-4 sm:p-5">
      <p className="mb-4 text-muted">{t('settings.optionsIntro')}</p>
      <div className="grid gap-x-5 gap-y-4 sm:grid-cols-2 xl:grid-cols-3">
        {SETTING_KEYS.map((key) => (
          <SelectField
            key={key}
            label={t(`settings.keys.${key}`)}
            name={key}
            value={valueOf(key)}
            disabled={saving === key || SETTING_VALUES[key].length < 2}
            onChange={(e) => void save(key, e.target.value)}
            options={SETTING_VALUES[key].map((v) => ({ value: v, label: t(`settings.values.${v}`) }))}
          />
        ))}
      </div>
    </Card>
  );
}
