import { useTranslation } from 'react-i18next';

/** Shown when a route fails to load (a chunk missing after a deploy, a render error). */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-full flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-lg font-semibold">{t('common.loadFailed')}</p>
      <button type="button" onClick={() => location.reload()} className="rounded-md bg-brand px-4 py-2 text-sm font-medium text-on-brand">
        {t('common.retry')}
      </button>
    </div>
  );
}
