// Modal dialogs on the native <dialog>: focus moves in and is trapped, Escape closes, focus returns.
import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, IconButton } from './Button.tsx';

type DialogProps = {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** When set, the body is a form and Enter submits it. */
  onSubmit?: (e: FormEvent<HTMLFormElement>) => void;
};

const WIDTH = { sm: 'sm:max-w-sm', md: 'sm:max-w-lg', lg: 'sm:max-w-2xl' };

export function Dialog({ open, title, onClose, children, footer, size = 'md', onSubmit }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { t } = useTranslation();

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) {
      el.showModal();
      // showModal focuses the first button (the close button); the first field is where work starts.
      el.querySelector<HTMLElement>('input:not([type=hidden]), select, textarea')?.focus();
    }
    if (!open && el.open) el.close();
  }, [open]);

  const body = (
    <>
      <div className="flex items-center justify-between gap-3 border-b border-line px-5 py-3.5">
        <h2 id={titleId} className="text-base font-semibold">
          {title}
        </h2>
        <IconButton icon="x" label={t('common.close')} onClick={onClose} />
      </div>
      <div className="max-h-[70vh] overflow-y-auto px-5 py-4">{children}</div>
      {footer && <div className="flex flex-wrap justify-end gap-2 border-t border-line bg-raised px-5 py-3">{footer}</div>}
    </>
  );

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => e.target === e.currentTarget && onClose()}
      className={`m-auto w-[calc(100%-1.5rem)] rounded-lg border border-line bg-surface p-0 text-ink shadow-2xl backdrop:bg-slate-950/50 ${WIDTH[size]}`}
    >
      {open &&
        (onSubmit ? (
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              onSubmit(e);
            }}
          >
            {body}
          </form>
        ) : (
          body
        ))}
    </dialog>
  );
}

type ConfirmProps = { open: boolean; title: string; message: string; confirmLabel?: string; busy?: boolean; onConfirm: () => void; onClose: () => void };

export function ConfirmDialog({ open, title, message, confirmLabel, busy, onConfirm, onClose }: ConfirmProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button variant="danger" busy={busy} onClick={onConfirm}>
            {confirmLabel ?? t('common.delete')}
          </Button>
        </>
      }
    >
      <p className="text-muted">{message}</p>
    </Dialog>
  );
}
