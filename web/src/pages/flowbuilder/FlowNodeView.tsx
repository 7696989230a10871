// How a node is drawn: a card with its type, a summary of its data, an input on the left (not on the
// start node) and one output per handle on the right, each with the id sync's FLOW_HANDLES gives it,
// so an edge drawn from it is the path the engine takes. Errors (red) and warnings (amber) from the
// save check are written on the node; a highlighted node has a blue border and the others dim.
import { createContext, memo, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { Handle, Position, useStore, type NodeProps, type ReactFlowState } from '@xyflow/react';
import { FLOW_HANDLES, type FlowNodeType } from '@zapdesk/sync';
import { Icon, MaskIcon, type IconName } from '../../ui/Icon.tsx';
import { outputsOf, type EditorNode, type FlowNote } from './flow-graph.ts';
import { elementsInOrder, randomizerSplit } from './node-forms.ts';
import { borderWidthOf, drawnOnCanvas, ringOf, type OverviewMarks } from './overview-paint.ts';

export type EditorView = {
  errors: Map<string, FlowNote[]>;
  warnings: Map<string, FlowNote[]>;
  highlight: string | null;
  /** The node the test panel's conversation is at. */
  running: string | null;
  onEdit: (id: string) => void;
  onDuplicate: (id: string) => void;
  onDelete: (id: string) => void;
};

export const EditorViewContext = createContext<EditorView | null>(null);

export const NODE_STYLE: Record<FlowNodeType, { icon: IconName; color: string }> = {
  start: { icon: 'play', color: 'bg-emerald-600' },
  message: { icon: 'tickets', color: 'bg-sky-600' },
  interval: { icon: 'clock', color: 'bg-amber-600' },
  condition: { icon: 'transfer', color: 'bg-violet-600' },
  menu: { icon: 'lists', color: 'bg-indigo-600' },
  img: { icon: 'image', color: 'bg-pink-600' },
  audio: { icon: 'mic', color: 'bg-pink-600' },
  video: { icon: 'video', color: 'bg-pink-600' },
  singleBlock: { icon: 'files', color: 'bg-cyan-700' },
  randomizer: { icon: 'refresh', color: 'bg-fuchsia-600' },
  ticket: { icon: 'queues', color: 'bg-slate-700' },
  question: { icon: 'help', color: 'bg-teal-700' },
  typebot: { icon: 'integrations', color: 'bg-orange-600' },
  openai: { icon: 'prompts', color: 'bg-zinc-800' },
};

type D = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
const integration = (d: D) => (d.typebotIntegration ?? {}) as D;

function useSummary(type: FlowNodeType, d: D): string {
  const { t } = useTranslation();
  switch (type) {
    case 'start': return t('flowbuilder.nodes.startHint');
    case 'message': return str(d.label);
    case 'interval': return t('flowbuilder.summary.wait', { sec: str(d.sec) });
    case 'condition': return `${str(d.key)} ${t(`flowbuilder.operators.${str(d.condition) || 'equals'}`)} ${str(d.value)}`.trim();
    case 'menu': return str(d.message);
    case 'img': case 'video': case 'audio': return [str(d.original) || str(d.url), str(d.caption)].filter(Boolean).join(' — ');
    case 'singleBlock':
      return elementsInOrder(d)
        .map((e) => (e.type === 'message' ? e.value : e.type === 'interval' ? t('flowbuilder.summary.wait', { sec: e.value }) : `${t(`flowbuilder.content.${e.type}`)}: ${e.original ?? e.value}`))
        .join(' · ');
    case 'randomizer': return '';
    case 'ticket': return str((d.queue as D | undefined)?.name ?? (d.data as D | undefined)?.name) || (d.queueId ? `#${str(d.queueId)}` : '');
    case 'question': return str(integration(d).message);
    case 'typebot': return str(integration(d).name);
    case 'openai': return str(integration(d).name);
  }
}

function useOutputLabel(type: FlowNodeType, d: D): (handle: string) => string {
  const { t } = useTranslation();
  return (handle) => {
    if (type === 'menu' && /^a\d+$/.test(handle)) {
      const n = Number(handle.slice(1));
      const opt = ((d.arrayOption as { number: unknown; value: unknown }[]) ?? []).find((o) => Number(o.number) === n);
      return `${n} - ${str(opt?.value)}`;
    }
    if (type === 'randomizer') {
      const split = randomizerSplit(Number(d.percent ?? 0));
      return `${handle === FLOW_HANDLES.randomA ? split.a : split.b}%`;
    }
    return t(`flowbuilder.handles.${handle}`);
  };
}

/**
 * Handles centred on the card's edge by negative margins of half their size, where React Flow's own
 * style moves them by `translate(±50%, -50%)`: in Chromium a transform makes a paint chunk of its own,
 * and a 300-node flow's ~900 transformed handles were most of what each frame of a drag spent
 * layerizing (React Flow measures the handles where they are, so edges end at the same points).
 */
const TARGET_HANDLE = '!size-3.5 !border-2 !border-surface !bg-slate-500 !transform-none !-mt-[7px] !-ml-[7px]';
const SOURCE_HANDLE = '!size-3 !border-2 !border-surface !bg-brand !transform-none !-mt-1.5 !-mr-1.5';
/** A handle of a canvas-painted node: where it was and as large, painted by the canvas instead. */
const GHOST_HANDLE = '!bg-transparent !border-transparent';
const NEXT_HANDLE = '!size-3.5 !border-2 !border-surface !bg-brand !transform-none !-mt-[7px] !-mr-[7px]';

/**
 * Below this zoom a card's text is too small to read (a 240 px card is under 100 px wide): nodes draw
 * as an overview instead (see OverviewNode), which also keeps dragging smooth in a large flow.
 */
export const OVERVIEW_ZOOM = 0.4;
export const zoomedOut = (s: ReactFlowState) => s.transform[2] < OVERVIEW_ZOOM;

/** What the editor marks on a node: the save check's notes, the highlight, the test run. */
export function marksOf(view: EditorView | null, id: string): OverviewMarks {
  const highlighted = view?.highlight === id;
  return {
    errors: view?.errors.get(id) ?? [],
    warnings: view?.warnings.get(id) ?? [],
    highlighted,
    dimmed: view?.highlight != null && !highlighted,
    running: view?.running === id,
  };
}

function FlowNodeViewBase(props: NodeProps<EditorNode>) {
  // A boolean selector: the nodes draw again only when the zoom crosses the threshold.
  const overview = useStore(zoomedOut);
  return overview ? <OverviewNode {...props} /> : <NodeCard {...props} />;
}

/**
 * A node seen from far: the card's outline and border in its type's colour, its type's icon and name
 * in large letters, and the same handles (edges keep their ends), without the summary, buttons and
 * output labels nobody could read at that size. Highlight, dimming, the test run and the save
 * check's marks show as in the card. Only a selected or dragged node draws itself: the others are
 * painted by OverviewCanvas, and their DOM node is an empty box of the same size with transparent
 * handles where the drawn ones are, so React Flow measures, hit-tests, drags and connects it as before.
 */
function OverviewNode({ id, type, data, selected, dragging }: NodeProps<EditorNode>) {
  const { t } = useTranslation();
  const view = useContext(EditorViewContext);
  const kind = type as FlowNodeType;
  const outputs = outputsOf(kind, data);
  const style = NODE_STYLE[kind];
  const marks = marksOf(view, id);
  const ring = ringOf(marks);
  const name = t(`flowbuilder.nodes.${kind}`);
  if (drawnOnCanvas({ selected, dragging })) {
    // Nothing positioned but the handles (each positioned box is one more layer for Chromium to walk
    // on every mouse move's hit test): they are placed from the node's own box, inside the border.
    const bw = borderWidthOf(ring);
    return (
      <div data-testid={`flow-node-${kind}`} role="img" aria-label={name} className="h-24 w-60">
        {kind !== 'start' && <Handle type="target" position={Position.Left} style={{ left: bw }} className={`${TARGET_HANDLE} ${GHOST_HANDLE}`} />}
        {outputs.map((h, i) => (
          <Handle key={h} type="source" id={h} position={Position.Right} style={{ right: bw, top: `calc(${bw}px + (100% - ${2 * bw}px) * ${(i + 1) / (outputs.length + 1)})` }} className={`${SOURCE_HANDLE} ${GHOST_HANDLE}`} />
        ))}
      </div>
    );
  }
  const width = borderWidthOf(ring) === 8 ? 'border-8' : 'border-2';
  const color = ring === 'danger' ? 'border-danger' : ring === 'highlight' ? 'border-blue-500' : ring === 'warning' ? 'border-amber-400' : 'border-transparent';
  return (
    <div
      data-testid={`flow-node-${kind}`}
      className={`relative flex h-24 w-60 items-center gap-3 rounded-lg px-4 text-white ${style.color} ${color} ${width} ${marks.dimmed ? 'opacity-40' : ''} ${marks.running ? 'outline-8 outline-offset-4 outline-emerald-500' : ''}`}
    >
      {kind !== 'start' && <Handle type="target" position={Position.Left} className={TARGET_HANDLE} />}
      <MaskIcon name={style.icon} className="size-10 shrink-0" />
      <span className="min-w-0 flex-1 truncate text-3xl font-semibold">{name}</span>
      {outputs.map((h, i) => (
        <Handle key={h} type="source" id={h} position={Position.Right} style={{ top: `${((i + 1) * 100) / (outputs.length + 1)}%` }} className={SOURCE_HANDLE} />
      ))}
    </div>
  );
}

function NodeCard({ id, type, data }: NodeProps<EditorNode>) {
  const { t } = useTranslation();
  const view = useContext(EditorViewContext);
  const kind = type as FlowNodeType;
  const outputs = outputsOf(kind, data);
  const summary = useSummary(kind, data);
  const label = useOutputLabel(kind, data);
  // A note about an output names it as the card does ("1 - Sales", "true", "30%"), not by its handle id.
  const noteText = (n: FlowNote) => (n.key ? t(`flowbuilder.${n.key}`, n.params.handle ? { ...n.params, handle: label(n.params.handle) } : n.params) : n.message);
  const { errors, warnings, highlighted, dimmed, running } = marksOf(view, id);
  const single = outputs.length === 1 && outputs[0] === FLOW_HANDLES.next;
  const style = NODE_STYLE[kind];
  const border = errors.length ? 'border-danger' : highlighted ? 'border-blue-500 ring-2 ring-blue-500/40' : warnings.length ? 'border-amber-400' : 'border-line';

  return (
    <div
      data-testid={`flow-node-${kind}`}
      className={`relative w-60 rounded-lg border-2 bg-surface text-ink shadow-md transition-opacity ${border} ${dimmed ? 'opacity-40' : ''} ${running ? 'outline-4 outline-offset-2 outline-emerald-500' : ''}`}
    >
      {kind !== 'start' && <Handle type="target" position={Position.Left} className={TARGET_HANDLE} />}
      <div className={`flex items-center gap-2 rounded-t-md px-2.5 py-1.5 text-white ${style.color}`}>
        <Icon name={style.icon} className="size-4 shrink-0" />
        <span className="min-w-0 flex-1 truncate text-[13px] font-semibold">{t(`flowbuilder.nodes.${kind}`)}</span>
        {kind !== 'start' && (
          <span className="nodrag flex items-center">
            <NodeButton icon="edit" label={t('flowbuilder.editNode')} onClick={() => view?.onEdit(id)} />
            <NodeButton icon="copy" label={t('flowbuilder.duplicateNode')} onClick={() => view?.onDuplicate(id)} />
            <NodeButton icon="trash" label={t('flowbuilder.deleteNode')} onClick={() => view?.onDelete(id)} />
          </span>
        )}
      </div>
      {summary && <p className="line-clamp-3 px-2.5 pt-2 text-xs break-words whitespace-pre-line text-muted">{summary}</p>}
      {kind === 'question' && str(integration(data).answerKey) && (
        <p className="px-2.5 pt-1 font-mono text-[11px] text-teal-700 dark:text-teal-300">{`→ {{${str(integration(data).answerKey)}}}`}</p>
      )}
      {single ? (
        <div className="h-3" />
      ) : (
        <ul className="mt-2 border-t border-line py-1">
          {outputs.map((h) => (
            <li key={h} className="relative py-1 pr-4 text-right text-[11px] font-medium">
              <span className={h === FLOW_HANDLES.invalid || h === FLOW_HANDLES.timeout || h === FLOW_HANDLES.failed || h === FLOW_HANDLES.notConfigured || h === FLOW_HANDLES.conditionFalse ? 'text-muted' : ''}>{label(h)}</span>
              <Handle type="source" id={h} position={Position.Right} className={SOURCE_HANDLE} />
            </li>
          ))}
        </ul>
      )}
      {single && <Handle type="source" id={FLOW_HANDLES.next} position={Position.Right} className={NEXT_HANDLE} />}
      {(errors.length > 0 || warnings.length > 0) && (
        <ul className="space-y-0.5 border-t border-line px-2.5 py-1.5 text-[11px]">
          {errors.map((n) => (
            <li key={`e${n.message}`} className="text-danger" title={n.message}>
              {noteText(n)}
            </li>
          ))}
          {warnings.map((n) => (
            <li key={`w${n.message}`} className="text-amber-700 dark:text-amber-300" title={n.message}>
              {noteText(n)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function NodeButton({ icon, label, onClick }: { icon: IconName; label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={(e) => {
        e.stopPropagation();
        onClick();
      }}
      className="inline-flex size-6 items-center justify-center rounded text-white/85 hover:bg-white/20 hover:text-white"
    >
      <Icon name={icon} className="size-3.5" />
    </button>
  );
}

export const FlowNodeView = memo(FlowNodeViewBase);

/** Every node type draws with the same card. */
export const nodeTypes = Object.fromEntries(Object.keys(NODE_STYLE).map((k) => [k, FlowNodeView]));
