// Tabs with the ARIA tabs pattern: arrow keys move between tabs, only the active one is in the tab order.
import { useId, useRef, type KeyboardEvent } from 'react';

export type TabDef<K extends string> = { key: K; label: string };

type Props<K extends string> = { tabs: TabDef<K>[]; active: K; onChange: (key: K) => void; label: string };

export function Tabs<K extends string>({ tabs, active, onChange, label }: Props<K>) {
  const id = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step && e.key !== 'Home' && e.key !== 'End') return;
    e.preventDefault();
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : (index + step + tabs.length) % tabs.length;
    const tab = tabs[next];
    if (!tab) return;
    onChange(tab.key);
    refs.current[next]?.focus();
  };
  return (
    <div role="tablist" aria-label={label} className="flex gap-1 overflow-x-auto border-b border-line">
      {tabs.map((tab, i) => (
        <button
          key={tab.key}
          ref={(el) => {
            refs.current[i] = el;
          }}
          id={`${id}-${tab.key}`}
          type="button"
          role="tab"
          aria-selected={tab.key === active}
          aria-controls={`${id}-panel`}
          tabIndex={tab.key === active ? 0 : -1}
          onClick={() => onChange(tab.key)}
          onKeyDown={(e) => onKeyDown(e, i)}
          className={`-mb-px border-b-2 px-3.5 py-2.5 text-sm font-medium whitespace-nowrap transition-colors ${
            tab.key === active ? 'border-brand text-brand' : 'border-transparent text-muted hover:text-ink'
          }`}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
