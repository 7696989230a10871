// A compact multi-select (queues, tags, users filters): a button naming the choice and a popover of
// checkboxes; Escape or a click outside closes it and focus returns to the button.
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../ui/Icon.tsx';

type Option = { id: number; name: string; color?: string };
type Props = { label: string; options: Option[]; value: readonly number[]; onChange: (ids: number[]) => void };

export function MultiSelect({ label, options, value, onChange }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => !root.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('mousedown', onDown);
    root.current?.querySelector<HTMLInputElement>('input')?.focus();
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const toggle = (optionId: number) => onChange(value.includes(optionId) ? value.filter((v) => v !== optionId) : [...value, optionId]);
  const summary = value.length === 0 ? label : value.length === options.length ? `${label}: ${t('tickets.options.all')}` : `${label}: ${t('tickets.options.filterCount', { count: value.length })}`;

  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex h-8 items-center gap-1 rounded-md border border-line bg-surface px-2.5 text-xs font-medium hover:bg-raised"
      >
        {summary}
        <Icon name="chevronDown" className="size-3.5" />
      </button>
      {open && (
        <div
          id={id}
          role="group"
          aria-label={label}
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            setOpen(false);
            button.current?.focus();
          }}
          className="absolute right-0 z-40 mt-1 max-h-64 min-w-48 overflow-y-auto rounded-md border border-line bg-surface py-1 shadow-lg"
        >
          {options.map((o) => (
            <label key={o.id} className="flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm hover:bg-raised">
              <input type="checkbox" checked={value.includes(o.id)} onChange={() => toggle(o.id)} />
              {o.color && <span className="size-2.5 rounded-full" style={{ backgroundColor: o.color }} aria-hidden="true" />}
              {o.name}
            </label>
          ))}
        </div>
      )}
    </div>
  );
}
