import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@zapdesk/sync';
import { Icon } from './Icon.tsx';
import { Menu } from './Menu.tsx';

type Props = { onChange?: (lang: Language) => void; compact?: boolean };

/** The language menu of the login page and the top bar (pt, en, es). */
export function LanguageMenu({ onChange, compact }: Props) {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <Menu
      radio
      label={t('language.label')}
      triggerClassName="inline-flex h-9 items-center gap-1.5 rounded-md px-2.5 text-sm text-muted hover:bg-raised hover:text-ink"
      trigger={
        <>
          <Icon name="globe" className="size-[18px]" />
          {!compact && <span className="uppercase">{current}</span>}
        </>
      }
      entries={LANGUAGES.map((lang) => ({
        key: lang,
        label: t(`language.${lang}`),
        checked: current === lang,
        onSelect: () => {
          void i18n.changeLanguage(lang);
          onChange?.(lang);
        },
      }))}
    />
  );
}
