import type { ButtonHTMLAttributes } from 'react';
import { Icon, type IconName } from './Icon.tsx';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

const VARIANTS: Record<Variant, string> = {
  primary: 'bg-brand text-on-brand hover:bg-brand-strong shadow-sm',
  secondary: 'border border-line bg-surface text-ink hover:bg-raised',
  ghost: 'text-ink hover:bg-raised',
  danger: 'bg-danger text-white hover:opacity-90 shadow-sm dark:text-canvas',
};

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; icon?: IconName; busy?: boolean };

export function Button({ variant = 'primary', icon, busy, className = '', children, disabled, type = 'button', ...rest }: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      className={`inline-flex h-9 items-center justify-center gap-2 rounded-md px-3.5 text-sm font-medium whitespace-nowrap transition-colors disabled:cursor-not-allowed disabled:opacity-60 ${VARIANTS[variant]} ${className}`}
      {...rest}
    >
      {busy ? <span className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" aria-hidden="true" /> : icon && <Icon name={icon} className="size-4" />}
      {children}
    </button>
  );
}

type IconButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { icon: IconName; label: string; tone?: 'default' | 'danger' };

/** A square icon button; `label` is its accessible name and tooltip. */
export function IconButton({ icon, label, tone = 'default', className = '', type = 'button', ...rest }: IconButtonProps) {
  const color = tone === 'danger' ? 'text-muted hover:text-danger hover:bg-danger-soft' : 'text-muted hover:text-ink hover:bg-raised';
  return (
    <button type={type} aria-label={label} title={label} className={`inline-flex size-9 shrink-0 items-center justify-center rounded-md transition-colors ${color} ${className}`} {...rest}>
      <Icon name={icon} className="size-[18px]" />
    </button>
  );
}
