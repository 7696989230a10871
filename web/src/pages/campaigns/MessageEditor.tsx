// The campaign dialog's messages (spec/03 §2, §9): up to 5 variants as tabs, each with its
// confirmation variant when the campaign asks for one, chips that type a variable where the caret
// is, and a live preview of the variant being edited, rendered by the shared template renderer for
// a sample contact exactly as the dispatcher will render a send.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CAMPAIGN_VARIANTS, type CampaignSettings } from '@zapdesk/sync';
import { TextAreaField } from '../../ui/Field.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { formatWhatsAppBold } from '../../ui/MessagePreview.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { insertToken, previewMessage, variableTokens, type MessageField } from './campaign-form.ts';
import type { PreviewContact } from './use-campaign-options.ts';

type Props = {
  values: Record<MessageField, string>;
  onChange: (field: MessageField, value: string) => void;
  confirmation: boolean;
  disabled: boolean;
  settings: Pick<CampaignSettings, 'variables' | 'timeZone'>;
  errors: Record<string, string>;
  /** The attachment's name, shown on the preview bubble. */
  mediaName: string | null;
  /** Whom the preview shows it to: the chosen list's first contact, else a sample. */
  previewContact: PreviewContact | null;
};

const VARIANTS = Array.from({ length: CAMPAIGN_VARIANTS }, (_, i) => String(i + 1) as '1' | '2' | '3' | '4' | '5');
type Variant = (typeof VARIANTS)[number];

export function MessageEditor({ values, onChange, confirmation, disabled, settings, errors, mediaName, previewContact }: Props) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Variant>('1');
  const [focused, setFocused] = useState<MessageField>('message1');
  const areas = useRef<Partial<Record<MessageField, HTMLTextAreaElement | null>>>({});
  // A refused save shows the first variant with an error (it may not be the tab open).
  const erring = Object.keys(errors).map((k) => /^(?:confirmationM|m)essage([1-5])$/.exec(k)?.[1]).find(Boolean) as Variant | undefined;
  useEffect(() => {
    if (erring) setTab(erring);
  }, [erring, errors]);
  const message = `message${tab}` as MessageField;
  const confirm = `confirmationMessage${tab}` as MessageField;
  // The preview follows the field last typed in, within the open tab.
  const shown: MessageField = confirmation && focused === confirm ? confirm : message;
  const sample = previewContact ?? { name: t('campaigns.sampleName'), number: '5511988887777', email: 'maria@example.com' };
  const preview = previewMessage(values[shown], sample, settings, new Date());

  const insert = (token: string) => {
    const el = areas.current[shown];
    const text = values[shown];
    const { text: next, caret } = insertToken(text, el?.selectionStart ?? text.length, el?.selectionEnd ?? text.length, token);
    onChange(shown, next);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(caret, caret);
    });
  };

  const area = (field: MessageField, label: string) => (
    <TextAreaField
      label={label}
      name={field}
      rows={5}
      value={values[field]}
      error={errors[field]}
      disabled={disabled}
      onFocus={(e) => {
        // The chips type where this field's caret is (a field not yet focused gets them at its end).
        areas.current[field] = e.currentTarget;
        setFocused(field);
      }}
      onChange={(e) => onChange(field, e.target.value)}
    />
  );

  return (
    <fieldset className="flex min-w-0 flex-col gap-3">
      <legend className="mb-1 text-[13px] font-medium">{t('campaigns.messages')}</legend>
      <p className="text-xs text-muted">{t('campaigns.variantsHint')}</p>
      <Tabs
        label={t('campaigns.messages')}
        tabs={VARIANTS.map((n) => ({ key: n, label: `${t('campaigns.messageTab', { n })}${values[`message${n}`].trim() ? ' •' : ''}` }))}
        active={tab}
        onChange={(n) => {
          setTab(n);
          setFocused(`message${n}`);
        }}
      />
      <div role="tabpanel" className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_15rem]">
        <div className="flex min-w-0 flex-col gap-3">
          {area(message, t('campaigns.message', { n: tab }))}
          {confirmation && area(confirm, t('campaigns.confirmationMessage', { n: tab }))}
          <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label={t('campaigns.variables')}>
            {variableTokens(settings.variables).map((token) => (
              <button
                key={token}
                type="button"
                disabled={disabled}
                aria-label={t('campaigns.insert', { token })}
                onClick={() => insert(token)}
                className="rounded-full border border-line bg-raised px-2.5 py-0.5 font-mono text-xs text-ink hover:border-brand hover:text-brand disabled:opacity-50"
              >
                {token}
              </button>
            ))}
          </div>
        </div>
        <section aria-label={t('campaigns.preview')} className="flex flex-col gap-2 rounded-md bg-raised p-3">
          <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">{t('campaigns.preview')}</h3>
          <p className="text-xs text-muted">{t('campaigns.previewFor', { name: sample.name })}</p>
          <div data-testid="campaign-preview" className="max-w-full min-w-0 self-start rounded-lg rounded-tl-none border border-line bg-surface px-3 py-2 text-sm wrap-anywhere whitespace-pre-wrap shadow-xs">
            {mediaName && (
              <p className="mb-1 flex items-center gap-1 text-xs text-muted">
                <Icon name="paperclip" className="size-3.5 shrink-0" />
                <span className="truncate">{mediaName}</span>
              </p>
            )}
            {preview.trim() ? formatWhatsAppBold(preview) : <span className="text-muted italic">{t('campaigns.previewEmpty')}</span>}
          </div>
        </section>
      </div>
    </fieldset>
  );
}
