import { useTranslation } from 'react-i18next';

/** The quiet loading state of a page or of the whole app while the session boots. */
export function Splash({ inline = false }: { inline?: boolean }) {
  const { t } = useTranslation();
  return (
    <div role="status" className={`flex items-center justify-center gap-3 text-muted ${inline ? 'py-16' : 'min-h-full'}`}>
      <span className="size-5 animate-spin rounded-full border-2 border-brand border-t-transparent" aria-hidden="true" />
      <span className="text-sm">{t('common.loading')}</span>
    </div>
  );
}
