// The frame of the public pages: a brand panel on wide screens, the form card, the language menu and
// the footer with copyright and version (spec/01 §2).
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { APP_VERSION } from '../../app/version.ts';
import { Icon } from '../../ui/Icon.tsx';
import { LanguageMenu } from '../../ui/LanguageMenu.tsx';
import { Logo } from '../../ui/Logo.tsx';

type Props = { title: string; subtitle?: string; children: ReactNode; footer?: ReactNode };

export function AuthShell({ title, subtitle, children, footer }: Props) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-full">
      <aside className="relative hidden w-[42%] max-w-xl flex-col justify-between overflow-hidden bg-gradient-to-br from-teal-800 via-teal-700 to-emerald-600 p-10 text-white lg:flex">
        <Logo inverted />
        <div className="space-y-6">
          <p className="text-3xl leading-tight font-semibold text-balance">{t('auth.tagline')}</p>
          <ul className="space-y-3 text-teal-50">
            {(['auth.pitch1', 'auth.pitch2', 'auth.pitch3'] as const).map((key) => (
              <li key={key} className="flex items-start gap-3">
                <span className="mt-0.5 rounded-full bg-white/15 p-1">
                  <Icon name="tasks" className="size-3.5" />
                </span>
                {t(key)}
              </li>
            ))}
          </ul>
        </div>
        <div aria-hidden="true" className="absolute -right-24 -bottom-24 size-80 rounded-full bg-white/5" />
        <p className="text-xs text-teal-100/80">{t('common.version', { version: APP_VERSION })}</p>
      </aside>
      <div className="flex flex-1 flex-col">
        <header className="flex items-center justify-between px-5 py-4 sm:px-8">
          <Logo className="lg:invisible" />
          <LanguageMenu />
        </header>
        <main className="flex flex-1 items-center justify-center px-4 py-6">
          <div className="w-full max-w-sm">
            <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
            {subtitle && <p className="mt-1.5 text-muted">{subtitle}</p>}
            <div className="mt-7">{children}</div>
            {footer && <div className="mt-6 text-center text-sm text-muted">{footer}</div>}
          </div>
        </main>
        <footer className="px-5 py-4 text-center text-xs text-muted">
          {t('common.copyright', { year: new Date().getFullYear() })} · {t('common.version', { version: APP_VERSION })}
        </footer>
      </div>
    </div>
  );
}
