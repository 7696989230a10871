// The editor's test panel: the flow as drawn, played locally by sync's engine (test-chat.ts) as a
// chat. The user types as the contact; waits are fired with the fake-clock button; typebot and
// openai nodes take their "not configured" path unless the adapters are switched on, and then the
// user reports the adapter's outcome. Nothing is sent to the server.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FlowGraph } from '@zapdesk/sync';
import { Button, IconButton } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { chatReducer, createChat, pendingWait, type Chat, type ChatInput, type ChatLine } from './test-chat.ts';

type Props = { graph: FlowGraph | null; onClose: () => void; onNode: (nodeId: string | null) => void };

const VARS = { name: 'Maria Souza', firstName: 'Maria', number: '5511999990000', email: 'maria@example.com', ms: 'Boa tarde' };

export function TestPanel({ graph, onClose, onNode }: Props) {
  const { t } = useTranslation();
  const [chat, setChat] = useState<Chat>(() => createChat());
  const [text, setText] = useState('');
  const [adapters, setAdapters] = useState(false);
  const bottom = useRef<HTMLDivElement>(null);

  const run = (input: ChatInput) => {
    if (!graph) return;
    setChat((c) => chatReducer(c, input, graph, { random: Math.random, vars: VARS, adapters: adapters ? { typebot: true, openai: true } : {} }));
  };

  useEffect(() => {
    onNode(chat.started && !chat.state.finished ? chat.state.nodeId : null);
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [chat, onNode]);
  useEffect(() => () => onNode(null), [onNode]);

  const send = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    run({ kind: 'say', text });
    setText('');
  };

  const wait = pendingWait(chat);
  const awaitingExternal = chat.state.awaiting?.kind === 'external' && !chat.state.finished;
  const clock = new Date(chat.now).toISOString().slice(11, 19);

  return (
    <aside aria-label={t('flowbuilder.test.title')} className="flex h-full w-full flex-col border-l border-line bg-surface sm:w-96">
      <div className="flex items-center justify-between gap-2 border-b border-line px-4 py-2.5">
        <h2 className="text-sm font-semibold">{t('flowbuilder.test.title')}</h2>
        <IconButton icon="x" label={t('common.close')} onClick={onClose} />
      </div>
      <div className="flex flex-wrap items-center gap-2 border-b border-line px-4 py-2">
        <Button icon="play" onClick={() => run({ kind: 'start' })} disabled={!graph}>
          {chat.started ? t('flowbuilder.test.restart') : t('flowbuilder.test.start')}
        </Button>
        <Button variant="secondary" icon="clock" onClick={() => run({ kind: 'fireTimer' })} disabled={wait === null}>
          {wait === null ? t('flowbuilder.test.noWait') : chat.state.timer?.purpose === 'timeout' ? t('flowbuilder.test.fireTimeout', { sec: wait }) : t('flowbuilder.test.fire', { sec: wait })}
        </Button>
        <span className="ml-auto font-mono text-xs text-muted" title={t('flowbuilder.test.clock')}>
          {clock}
        </span>
        <label className="flex w-full items-center gap-2 text-xs text-muted">
          <input type="checkbox" checked={adapters} onChange={(e) => setAdapters(e.target.checked)} />
          {t('flowbuilder.test.adapters')}
        </label>
      </div>
      {!graph && <p className="m-4 rounded-md border border-danger/30 bg-danger-soft px-3 py-2 text-sm text-danger">{t('flowbuilder.test.fixFirst')}</p>}
      <div className="flex-1 space-y-2 overflow-y-auto bg-raised px-3 py-3" aria-live="polite">
        {chat.lines.length === 0 && graph && <p className="py-8 text-center text-sm text-muted">{t('flowbuilder.test.empty')}</p>}
        {chat.lines.map((l) => (
          <Line key={l.id} line={l} />
        ))}
        {awaitingExternal && (
          <div className="flex flex-wrap justify-center gap-2 py-1">
            <Button variant="secondary" onClick={() => run({ kind: 'external', outcome: 'done' })}>
              {t('flowbuilder.test.adapterDone')}
            </Button>
            <Button variant="secondary" onClick={() => run({ kind: 'external', outcome: 'failed' })}>
              {t('flowbuilder.test.adapterFailed')}
            </Button>
          </div>
        )}
        <div ref={bottom} />
      </div>
      {Object.keys(chat.state.variables).length > 0 && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 border-t border-line px-4 py-2 text-xs">
          {Object.entries(chat.state.variables).map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="font-mono text-muted">{k}</dt>
              <dd className="truncate">{v}</dd>
            </div>
          ))}
        </dl>
      )}
      <form onSubmit={send} className="flex gap-2 border-t border-line p-3">
        <input
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('flowbuilder.test.placeholder')}
          aria-label={t('flowbuilder.test.placeholder')}
          disabled={!graph}
          className="h-9 min-w-0 flex-1 rounded-md border border-line bg-surface px-3 text-sm focus:border-brand focus:outline-none"
        />
        <IconButton icon="send" type="submit" label={t('flowbuilder.test.send')} disabled={!graph} />
      </form>
    </aside>
  );
}

function Line({ line }: { line: ChatLine }) {
  const { t } = useTranslation();
  if (line.from === 'note') {
    return <p className="text-center text-[11px] text-muted italic">{t(`flowbuilder.test.notes.${line.code}`, line.params)}</p>;
  }
  const mine = line.from === 'contact';
  return (
    <div className={`flex ${mine ? 'justify-end' : 'justify-start'}`}>
      <div className={`max-w-[85%] rounded-lg px-3 py-2 text-sm whitespace-pre-wrap shadow-xs ${mine ? 'bg-emerald-100 text-emerald-950 dark:bg-emerald-900 dark:text-emerald-50' : 'bg-surface'}`}>
        {line.from === 'flow' && line.media && (
          <span className="mb-1 flex items-center gap-1.5 text-xs font-medium text-muted">
            <Icon name={line.media.type === 'image' ? 'image' : line.media.type === 'audio' ? 'mic' : 'video'} className="size-4" />
            {line.media.url}
          </span>
        )}
        {line.text}
      </div>
    </div>
  );
}
