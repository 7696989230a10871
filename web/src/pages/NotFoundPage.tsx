import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function Component() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-3 py-20 text-center">
      <p className="text-5xl font-semibold text-brand">404</p>
      <h1 className="text-lg font-semibold">{t('common.notFoundTitle')}</h1>
      <p className="text-muted">{t('common.notFoundText')}</p>
      <Link to="/" className="mt-2 font-medium text-brand hover:underline">
        {t('common.goHome')}
      </Link>
    </div>
  );
}
