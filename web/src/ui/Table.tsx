import type { ReactNode, ThHTMLAttributes, TdHTMLAttributes } from 'react';

/** A dense data table that scrolls sideways on narrow screens instead of squeezing. */
/** `fluid` tables fit narrow screens by hiding columns themselves, so they need no minimum width. */
export function Table({ children, label, fluid = false }: { children: ReactNode; label: string; fluid?: boolean }) {
  return (
    <div className="overflow-x-auto">
      <table aria-label={label} className={`w-full border-collapse text-left text-[13.5px] ${fluid ? '' : 'min-w-[36rem]'}`}>
        {children}
      </table>
    </div>
  );
}

export function Th({ className = '', ...rest }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={`border-b border-line bg-raised px-2.5 py-2.5 text-xs sm:px-4 font-semibold tracking-wide text-muted uppercase ${className}`} {...rest} />;
}

export function Td({ className = '', ...rest }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={`border-b border-line px-2.5 py-2.5 align-middle sm:px-4 ${className}`} {...rest} />;
}

export function Badge({ children, tone = 'neutral' }: { children: ReactNode; tone?: 'neutral' | 'brand' | 'danger' | 'warning' }) {
  const tones = {
    neutral: 'bg-raised text-muted border-line',
    brand: 'bg-brand-soft text-brand border-brand/20',
    danger: 'bg-danger-soft text-danger border-danger/20',
    warning: 'bg-amber-50 text-amber-800 border-amber-200 dark:bg-amber-950/40 dark:text-amber-300 dark:border-amber-800/50',
  };
  return <span className={`inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap ${tones[tone]}`}>{children}</span>;
}
