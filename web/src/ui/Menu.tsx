// A dropdown menu with the ARIA menu-button pattern: Enter/Space/ArrowDown open it, arrows move,
// Home/End jump, Escape or Tab closes and returns focus to the button, a click outside closes.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export type MenuEntry = { key: string; label: ReactNode; onSelect: () => void; checked?: boolean; icon?: ReactNode };

type MenuProps = {
  /** The trigger's content and accessible name. */
  trigger: ReactNode;
  label: string;
  entries: MenuEntry[];
  align?: 'left' | 'right';
  triggerClassName?: string;
  /** Items are radios (one checked), as the language menu. */
  radio?: boolean;
};

export function Menu({ trigger, label, entries, align = 'right', triggerClassName = '', radio }: MenuProps) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const id = useId();

  const items = () => [...(listRef.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [])];
  const focusAt = (i: number) => {
    const all = items();
    all[(i + all.length) % all.length]?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const checked = items().findIndex((el) => el.getAttribute('aria-checked') === 'true');
    focusAt(Math.max(checked, 0));
    const onDown = (e: MouseEvent) => {
      const target = e.target as Node;
      if (!listRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown') focusAt(at + 1);
    else if (e.key === 'ArrowUp') focusAt(at - 1);
    else if (e.key === 'Home') focusAt(0);
    else if (e.key === 'End') focusAt(all.length - 1);
    else if (e.key === 'Escape') close();
    else if (e.key === 'Tab') setOpen(false);
    else return;
    if (e.key !== 'Tab') e.preventDefault();
  };

  return (
    <div className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={label}
        title={label}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
          }
        }}
        className={triggerClassName}
      >
        {trigger}
      </button>
      {open && (
        <div
          ref={listRef}
          id={id}
          role="menu"
          aria-label={label}
          onKeyDown={onKeyDown}
          className={`absolute z-50 mt-1.5 min-w-44 rounded-md border border-line bg-surface py-1 shadow-lg ${align === 'right' ? 'right-0' : 'left-0'}`}
        >
          {entries.map((entry) => (
            <button
              key={entry.key}
              type="button"
              role={radio ? 'menuitemradio' : 'menuitem'}
              aria-checked={radio ? entry.checked === true : undefined}
              tabIndex={-1}
              onClick={() => {
                close();
                entry.onSelect();
              }}
              className="flex w-full items-center gap-2.5 px-3 py-2 text-left text-sm text-ink hover:bg-raised focus:bg-raised focus:outline-none"
            >
              {radio && <span className={`size-1.5 rounded-full ${entry.checked ? 'bg-brand' : 'bg-transparent'}`} aria-hidden="true" />}
              {entry.icon}
              {entry.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
