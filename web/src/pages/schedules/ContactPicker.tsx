// Choosing a schedule's contact: a name search (debounced 500 ms) over GET /contacts/list and a
// select of its answers; the chosen contact stays listed while the search changes.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactOption } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SEARCH_DEBOUNCE_MS } from '../../hooks/scroll.ts';
import { SelectField, TextField } from '../../ui/Field.tsx';
import { toastError } from '../../ui/toast/toast-error.ts';

type Props = { value: ContactOption | null; onChange: (contact: ContactOption | null) => void; error?: string | undefined };

export function ContactPicker({ value, onChange, error }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [options, setOptions] = useState<ContactOption[]>([]);

  useEffect(() => {
    let live = true;
    const timer = setTimeout(
      () => {
        api.get<ContactOption[]>('/contacts/list', { query: { name: search } }).then((rows) => live && setOptions(rows), toastError);
      },
      search ? SEARCH_DEBOUNCE_MS : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [search]);

  const listed = value && !options.some((o) => o.id === value.id) ? [value, ...options] : options;
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <TextField label={t('schedules.findContact')} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      <SelectField
        label={t('schedules.contact')}
        name="contactId"
        value={value ? String(value.id) : ''}
        error={error}
        onChange={(e) => onChange(listed.find((o) => String(o.id) === e.target.value) ?? null)}
        options={[{ value: '', label: t('schedules.chooseContact') }, ...listed.map((o) => ({ value: String(o.id), label: `${o.name} (${o.number})` }))]}
      />
    </div>
  );
}
