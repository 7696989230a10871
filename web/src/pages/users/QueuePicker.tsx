// The queues of a user, chosen from the company's queues in the local (synced) state.
import type { UserQueue } from '@zapdesk/sync';
import { useTranslation } from 'react-i18next';
import { useSyncedList } from '../../sync/use-synced.ts';

type Props = { value: number[]; onChange: (ids: number[]) => void; known?: UserQueue[]; disabled?: boolean };

export function QueuePicker({ value, onChange, known = [], disabled }: Props) {
  const { t } = useTranslation();
  const synced = useSyncedList('queue');
  // Until the local state has pulled, the user's own queues (from REST) are still shown and kept.
  const queues = [...(synced ?? []), ...known.filter((k) => !synced?.some((q) => q.id === k.id)).map((k) => ({ ...k, orderQueue: null }))];
  const sorted = queues.sort((a, b) => (a.orderQueue ?? 0) - (b.orderQueue ?? 0) || a.name.localeCompare(b.name));
  const toggle = (id: number) => onChange(value.includes(id) ? value.filter((q) => q !== id) : [...value, id]);
  return (
    <fieldset className="flex flex-col gap-1.5" disabled={disabled}>
      <legend className="mb-1.5 text-[13px] font-medium">{t('users.queues')}</legend>
      {sorted.length === 0 ? (
        <p className="text-sm text-muted">{t('users.noQueues')}</p>
      ) : (
        <div className="flex flex-wrap gap-2">
          {sorted.map((q) => {
            const on = value.includes(q.id);
            return (
              <label
                key={q.id}
                className={`flex cursor-pointer items-center gap-2 rounded-full border px-3 py-1 text-[13px] transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand ${
                  on ? 'border-brand bg-brand-soft text-ink' : 'border-line text-muted hover:text-ink'
                } ${disabled ? 'cursor-not-allowed opacity-60' : ''}`}
              >
                <input type="checkbox" className="sr-only" checked={on} onChange={() => toggle(q.id)} />
                <span className="size-2.5 rounded-full" style={{ backgroundColor: q.color }} aria-hidden="true" />
                {q.name}
              </label>
            );
          })}
        </div>
      )}
    </fieldset>
  );
}
