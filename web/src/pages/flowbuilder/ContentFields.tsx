// The content dialog's cards (spec/03 §3 singleBlock): texts, waits, images, audio and video in the
// order they are sent; cards can be added, moved and removed. The block stores `seq` (ids in order)
// and `elements`, both written in card order.
import { useTranslation } from 'react-i18next';
import { CONTENT_ELEMENT_TYPES, FLOW_INTERVAL_MAX_SEC } from '@zapdesk/sync';
import { Button, IconButton } from '../../ui/Button.tsx';
import { TextAreaField, TextField } from '../../ui/Field.tsx';
import { MediaField } from './MediaField.tsx';
import { addElement, contentData, elementsInOrder, moveElement, type ContentElement, type Data, type FormErrors } from './node-forms.ts';

type Props = { data: Data; errors: FormErrors; onChange: (data: Data) => void };

export function ContentFields({ data, errors, onChange }: Props) {
  const { t } = useTranslation();
  const list = elementsInOrder(data);
  const set = (next: ContentElement[]) => onChange(contentData(next));
  const patch = (i: number, p: Partial<ContentElement>) => set(list.map((e, j) => (j === i ? { ...e, ...p } : e)));
  const err = (i: number) => (errors[`elements.${i}.value`] ? t(`flowbuilder.rules.${errors[`elements.${i}.value`]}`) : undefined);

  return (
    <div className="flex flex-col gap-3">
      {errors.seq && <p className="text-sm text-danger">{t(`flowbuilder.rules.${errors.seq}`)}</p>}
      {list.map((el, i) => (
        <div key={el.number} className="rounded-md border border-line bg-raised/60 p-3">
          <div className="mb-2 flex items-center justify-between gap-2">
            <span className="text-xs font-semibold tracking-wide text-muted uppercase">{t(`flowbuilder.content.${el.type}`)}</span>
            <span className="flex">
              <IconButton icon="chevronDown" className="rotate-180" label={t('flowbuilder.content.up')} disabled={i === 0} onClick={() => set(moveElement(list, i, -1))} />
              <IconButton icon="chevronDown" label={t('flowbuilder.content.down')} disabled={i === list.length - 1} onClick={() => set(moveElement(list, i, 1))} />
              <IconButton icon="trash" tone="danger" label={t('flowbuilder.content.remove')} onClick={() => set(list.filter((_, j) => j !== i))} />
            </span>
          </div>
          {el.type === 'message' && <TextAreaField label={t('flowbuilder.fields.text')} rows={3} value={el.value} error={err(i)} onChange={(e) => patch(i, { value: e.target.value })} />}
          {el.type === 'interval' && (
            <TextField label={t('flowbuilder.fields.seconds')} type="number" min={1} max={FLOW_INTERVAL_MAX_SEC} value={el.value} error={err(i)} onChange={(e) => patch(i, { value: e.target.value })} />
          )}
          {(el.type === 'img' || el.type === 'audio' || el.type === 'video') && (
            <>
              <MediaField kind={el.type} inContent label={t('flowbuilder.fields.file')} value={el.value} original={el.original} error={err(i)} onUploaded={(stored, original) => patch(i, { value: stored, original })} />
              {el.type === 'audio' && (
                <label className="mt-2 flex items-center gap-2 text-sm">
                  <input type="checkbox" checked={el.record ?? true} onChange={(e) => patch(i, { record: e.target.checked })} />
                  {t('flowbuilder.fields.record')}
                </label>
              )}
            </>
          )}
        </div>
      ))}
      <div className="flex flex-wrap gap-2">
        {CONTENT_ELEMENT_TYPES.map((type) => (
          <Button key={type} variant="secondary" icon="plus" onClick={() => set(addElement(list, type))}>
            {t(`flowbuilder.content.${type}`)}
          </Button>
        ))}
      </div>
    </div>
  );
}
