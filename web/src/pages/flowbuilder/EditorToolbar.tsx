// The editor's header (spec/03 §2): back to the list, the title 'Desenhe seu fluxo' with the flow's
// name and the reminder to save, the save check's counts, undo/redo, the test panel's toggle and Salvar.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';

type Props = {
  name: string | null;
  dirty: boolean;
  /** Errors show once a save was tried; warnings always. */
  errorCount: number;
  warningCount: number;
  showChecks: boolean;
  history: { undo: () => void; redo: () => void; canUndo: boolean; canRedo: boolean };
  testing: boolean;
  onToggleTest: () => void;
  onSave: () => void;
  saving: boolean;
  loading: boolean;
};

export function EditorToolbar({ name, dirty, errorCount, warningCount, showChecks, history, testing, onToggleTest, onSave, saving, loading }: Props) {
  const { t } = useTranslation();
  return (
    <header className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-line bg-surface px-4 py-3">
      <Link to="/flowbuilders" className="text-muted hover:text-ink" aria-label={t('flowbuilder.back')} title={t('flowbuilder.back')}>
        <Icon name="chevronLeft" />
      </Link>
      <div className="min-w-0">
        <h1 className="text-lg font-semibold tracking-tight">{t('flowbuilder.title')}</h1>
        <p className="truncate text-xs text-muted">
          {name ? `${name} · ` : ''}
          {dirty ? <span className="font-medium text-amber-700 dark:text-amber-300">{t('flowbuilder.unsaved')} · </span> : null}
          {t('flowbuilder.reminder')}
        </p>
      </div>
      <div className="ml-auto flex flex-wrap items-center gap-2">
        {errorCount > 0 && showChecks && <span className="rounded-full bg-danger-soft px-2.5 py-1 text-xs font-medium text-danger">{t('flowbuilder.errorCount', { count: errorCount })}</span>}
        {warningCount > 0 && <span className="rounded-full bg-amber-50 px-2.5 py-1 text-xs font-medium text-amber-800 dark:bg-amber-950/40 dark:text-amber-200">{t('flowbuilder.warningCount', { count: warningCount })}</span>}
        <Button variant="ghost" icon="undo" onClick={history.undo} disabled={!history.canUndo}>
          {t('flowbuilder.undo')}
        </Button>
        <Button variant="ghost" icon="reply" className="[&>svg]:-scale-x-100" onClick={history.redo} disabled={!history.canRedo}>
          {t('flowbuilder.redo')}
        </Button>
        <Button variant="secondary" icon="play" onClick={onToggleTest} aria-pressed={testing}>
          {t('flowbuilder.test.open')}
        </Button>
        <Button onClick={onSave} busy={saving} disabled={loading}>
          {t('flowbuilder.save')}
        </Button>
      </div>
    </header>
  );
}
