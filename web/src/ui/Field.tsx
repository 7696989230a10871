import { useEffect, useId, useRef, useState, type ChangeEvent, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon.tsx';

const CONTROL =
  'block h-9 w-full rounded-md border border-line bg-surface px-3 text-sm text-ink placeholder:text-muted/70 shadow-xs transition-colors focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/25 disabled:opacity-60 aria-[invalid=true]:border-danger';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/**
 * A field's error as the user sees it. An error that came of a submit of its form (the form's own
 * check, or the server's answer to it) goes as soon as the field is edited, since it was about the
 * value just replaced, and the next submit shows it again, even in the same words. An error the
 * form works out as the user types is always shown.
 */
function useShownError<E extends Control>(error: string | undefined, onChange: ((e: ChangeEvent<E>) => void) | undefined) {
  // 'submitted': since the last submit, with no edit since (an error arriving now is that submit's).
  const [phase, setPhase] = useState<'idle' | 'submitted' | 'edited'>('idle');
  const [ofSubmit, setOfSubmit] = useState<string | undefined>(undefined);
  if (phase === 'submitted' && error !== undefined && error !== ofSubmit) setOfSubmit(error);
  const ref = useRef<E>(null);
  useEffect(() => {
    const form = ref.current?.form;
    if (!form) return;
    const submitted = () => setPhase('submitted');
    form.addEventListener('submit', submitted);
    return () => form.removeEventListener('submit', submitted);
  }, []);
  const changed = (e: ChangeEvent<E>) => {
    setPhase('edited');
    onChange?.(e);
  };
  return { error: phase === 'edited' && error === ofSubmit ? undefined : error, ref, onChange: changed };
}

type FieldShellProps = { id: string; label: string; error?: string | undefined; hint?: string | undefined; children: ReactNode; className?: string | undefined };

function FieldShell({ id, label, error, hint, children, className = '' }: FieldShellProps) {
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-[13px] font-medium text-ink">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-msg`} className="text-xs text-danger">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-msg`} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | undefined; hint?: string | undefined; wrapperClassName?: string };

export function TextField({ label, error: given, hint, wrapperClassName, id, onChange, ...rest }: TextFieldProps) {
  const auto = useId();
  const fieldId = id ?? auto;
  const { error, ref, onChange: changed } = useShownError(given, onChange);
  return (
    <FieldShell id={fieldId} label={label} error={error} hint={hint} className={wrapperClassName}>
      <input ref={ref} id={fieldId} aria-invalid={error ? true : undefined} aria-describedby={error || hint ? `${fieldId}-msg` : undefined} className={CONTROL} onChange={changed} {...rest} />
    </FieldShell>
  );
}

type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; error?: string | undefined; hint?: string | undefined; wrapperClassName?: string };

/** A multi-line text input with the same label, hint and error as TextField. */
export function TextAreaField({ label, error: given, hint, wrapperClassName, id, rows = 3, onChange, ...rest }: TextAreaFieldProps) {
  const auto = useId();
  const fieldId = id ?? auto;
  const { error, ref, onChange: changed } = useShownError(given, onChange);
  return (
    <FieldShell id={fieldId} label={label} error={error} hint={hint} className={wrapperClassName}>
      <textarea
        ref={ref}
        id={fieldId}
        onChange={changed}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? `${fieldId}-msg` : undefined}
        className={`${CONTROL} h-auto resize-y py-2`}
        {...rest}
      />
    </FieldShell>
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField({ label, error: given, hint, wrapperClassName, id, onChange, ...rest }: TextFieldProps) {
  const { t } = useTranslation();
  const auto = useId();
  const fieldId = id ?? auto;
  const [shown, setShown] = useState(false);
  const { error, ref, onChange: changed } = useShownError(given, onChange);
  return (
    <FieldShell id={fieldId} label={label} error={error} hint={hint} className={wrapperClassName}>
      <div className="relative">
        <input
          ref={ref}
          id={fieldId}
          onChange={changed}
          type={shown ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={error || hint ? `${fieldId}-msg` : undefined}
          className={`${CONTROL} pr-10`}
          {...rest}
        />
        <button
          type="button"
          onClick={() => setShown((s) => !s)}
          aria-label={shown ? t('common.hidePassword') : t('common.showPassword')}
          aria-pressed={shown}
          className="absolute inset-y-0 right-0 flex w-9 items-center justify-center text-muted hover:text-ink"
        >
          <Icon name={shown ? 'eyeOff' : 'eye'} className="size-4" />
        </button>
      </div>
    </FieldShell>
  );
}

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> & { label: string; error?: string | undefined; hint?: string | undefined; wrapperClassName?: string; options: { value: string; label: string }[] };

export function SelectField({ label, error: given, hint, wrapperClassName, options, id, onChange, ...rest }: SelectFieldProps) {
  const auto = useId();
  const fieldId = id ?? auto;
  const { error, ref, onChange: changed } = useShownError(given, onChange);
  return (
    <FieldShell id={fieldId} label={label} error={error} hint={hint} className={wrapperClassName}>
      <select ref={ref} id={fieldId} aria-invalid={error ? true : undefined} aria-describedby={error || hint ? `${fieldId}-msg` : undefined} className={`${CONTROL} pr-8`} onChange={changed} {...rest}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

type SwitchProps = { label: string; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean };

export function Switch({ label, checked, onChange, disabled }: SwitchProps) {
  return (
    <label className="flex cursor-pointer items-center justify-between gap-3 rounded-md border border-line bg-surface px-3 py-2">
      <span className="text-sm">{label}</span>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-label={label}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className={`relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors ${checked ? 'bg-brand' : 'bg-line'}`}
      >
        <span className={`inline-block size-4 rounded-full bg-white shadow transition-transform ${checked ? 'translate-x-[18px]' : 'translate-x-0.5'}`} />
      </button>
    </label>
  );
}
