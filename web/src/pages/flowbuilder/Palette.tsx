// The floating menu of spec/03 §2 ("Conteúdo, Menu, Randomizador, Intervalo, Ticket"): a button that
// opens the list of node types, each opening its create dialog. Every type but the start: a flow has
// one start, always there.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FLOW_NODE_TYPES, type FlowNodeType } from '@zapdesk/sync';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { NODE_STYLE } from './FlowNodeView.tsx';

const PALETTE = FLOW_NODE_TYPES.filter((t) => t !== 'start');

export function Palette({ onPick }: { onPick: (type: FlowNodeType) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div className="flex flex-col items-start gap-1.5">
      <Button icon={open ? 'x' : 'plus'} aria-expanded={open} aria-controls="flow-palette" onClick={() => setOpen((o) => !o)} className="shadow-lg">
        {t('flowbuilder.palette')}
      </Button>
      {open && (
        <nav id="flow-palette" aria-label={t('flowbuilder.palette')} className="grid max-h-[calc(100vh-14rem)] w-80 grid-cols-2 gap-0.5 overflow-y-auto rounded-lg border border-line bg-surface p-1.5 shadow-lg">
          {PALETTE.map((type) => (
            <button
              key={type}
              type="button"
              onClick={() => {
                setOpen(false);
                onPick(type);
              }}
              className="flex items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-raised"
            >
              <span className={`flex size-6 shrink-0 items-center justify-center rounded text-white ${NODE_STYLE[type].color}`}>
                <Icon name={NODE_STYLE[type].icon} className="size-3.5" />
              </span>
              {t(`flowbuilder.nodes.${type}`)}
            </button>
          ))}
        </nav>
      )}
    </div>
  );
}
