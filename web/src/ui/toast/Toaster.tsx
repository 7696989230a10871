import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { dismissToast, getToasts, subscribeToasts, type Toast } from './store.ts';

const TONE: Record<Toast['kind'], string> = {
  success: 'border-l-emerald-500',
  error: 'border-l-red-500',
  info: 'border-l-sky-500',
  warning: 'border-l-amber-500',
};

function ToastItem({ item }: { item: Toast }) {
  const { t } = useTranslation();
  useEffect(() => {
    const timer = setTimeout(() => dismissToast(item.id), item.duration);
    return () => clearTimeout(timer);
  }, [item.id, item.duration]);
  return (
    <div
      role={item.kind === 'error' ? 'alert' : 'status'}
      data-toast={item.kind}
      className={`pointer-events-auto flex items-start gap-3 rounded-md border border-line border-l-4 bg-surface px-4 py-3 text-ink shadow-lg ${TONE[item.kind]}`}
    >
      <p className="flex-1 leading-5">{item.message}</p>
      <button type="button" onClick={() => dismissToast(item.id)} aria-label={t('common.close')} className="text-muted hover:text-ink">
        ×
      </button>
    </div>
  );
}

/** The toast area (spec/01 §2): top-right on wide screens, full width on phones; below the top bar (h-14), so its buttons stay reachable. */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts);
  return (
    <div aria-live="polite" className="pointer-events-none fixed inset-x-3 top-16 z-[100] flex flex-col gap-2 sm:left-auto sm:right-4 sm:w-96">
      {toasts.map((item) => (
        <ToastItem key={item.id} item={item} />
      ))}
    </div>
  );
}
