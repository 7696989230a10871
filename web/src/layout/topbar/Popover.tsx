// A top-bar popover: an icon button with an optional dot or count, and a panel that takes focus,
// closes on Escape (focus back to the button) or a click outside. Below 600 px it spans the width.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Icon, type IconName } from '../../ui/Icon.tsx';

type Props = {
  icon: IconName;
  label: string;
  /** A number shows as a count, `true` as a dot. */
  badge?: number | boolean;
  badgeLabel?: string;
  onOpen?: () => void;
  children: (close: () => void) => ReactNode;
  testId?: string;
};

export function Popover({ icon, label, badge, badgeLabel, onOpen, children, testId }: Props) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onDown = (e: MouseEvent) => {
      const target = e.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const shown = typeof badge === 'number' ? badge > 0 : badge === true;
  return (
    <div className="sm:relative">
      <button
        ref={button}
        type="button"
        aria-label={shown && badgeLabel ? `${label} (${badgeLabel})` : label}
        title={label}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        data-testid={testId}
        onClick={() => {
          if (!open) onOpen?.();
          setOpen(!open);
        }}
        className="relative inline-flex size-9 shrink-0 items-center justify-center rounded-md text-muted transition-colors hover:bg-raised hover:text-ink"
      >
        <Icon name={icon} className="size-[18px]" />
        {shown &&
          (typeof badge === 'number' ? (
            <span className="absolute top-0.5 right-0.5 min-w-4 rounded-full bg-danger px-1 text-center text-[10px] leading-4 font-semibold text-white" aria-hidden="true">
              {badge > 99 ? '99+' : badge}
            </span>
          ) : (
            <span className="absolute top-1.5 right-1.5 size-2 rounded-full bg-danger ring-2 ring-surface" aria-hidden="true" />
          ))}
      </button>
      {open && (
        <div
          ref={panel}
          id={id}
          role="dialog"
          aria-label={label}
          tabIndex={-1}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              close();
            }
          }}
          className="absolute top-14 right-2 left-2 z-50 flex max-h-[350px] flex-col overflow-hidden rounded-lg border border-line bg-surface shadow-xl focus:outline-none sm:top-full sm:left-auto sm:mt-1.5 sm:w-80"
        >
          <p className="border-b border-line px-4 py-2.5 text-sm font-semibold">{label}</p>
          <div className="min-h-0 flex-1 overflow-y-auto">{children(close)}</div>
        </div>
      )}
    </div>
  );
}
