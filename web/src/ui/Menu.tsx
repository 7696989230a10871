// A dropdown menu with the ARIA menu-button pattern: Enter/Space/ArrowDown open it, arrows move,
// Home/End jump, Escape or Tab closes and returns focus to the button, a click outside closes.
// The list is drawn on the page's top level (a portal, fixed to the button), so a table card or a
// chat that scrolls its content never clips it; it opens upwards when there is no room below. Not
// for use inside a modal <dialog>: the dialog's top layer would cover a list drawn outside it.
import { useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

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
  const [place, setPlace] = useState<CSSProperties>({ visibility: 'hidden' });
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const id = useId();

  const items = () => [...(listRef.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [])];
  const focusAt = (i: number) => {
    const all = items();
    all[(i + all.length) % all.length]?.focus({ preventScroll: true });
  };

  // Where the list goes: under the button (over it when the viewport has no room below), its
  // right or left edge on the button's; again whenever something scrolls or the window resizes.
  useLayoutEffect(() => {
    if (!open) return;
    const GAP = 6;
    const position = () => {
      const button = buttonRef.current?.getBoundingClientRect();
      const list = listRef.current;
      if (!button || !list) return;
      const height = list.offsetHeight;
      const below = button.bottom + GAP + height <= window.innerHeight || button.top - GAP - height < 0;
      const top = below ? button.bottom + GAP : button.top - GAP - height;
      const side = align === 'right' ? { right: Math.max(GAP, window.innerWidth - button.right) } : { left: Math.max(GAP, button.left) };
      setPlace({ top, ...side });
    };
    position();
    window.addEventListener('resize', position);
    window.addEventListener('scroll', position, true);
    return () => {
      window.removeEventListener('resize', position);
      window.removeEventListener('scroll', position, true);
    };
  }, [open, align]);

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
      {open &&
        createPortal(
          <div
            ref={listRef}
            id={id}
            role="menu"
            aria-label={label}
            onKeyDown={onKeyDown}
            style={place}
            className="fixed z-50 min-w-44 rounded-md border border-line bg-surface py-1 shadow-lg"
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
          </div>,
          document.body,
        )}
    </div>
  );
}
