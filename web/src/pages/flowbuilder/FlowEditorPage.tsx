// /flowbuilder/:id (spec/03 §2 "Flow editor"): the flow drawn with React Flow. Loads 500 ms after
// entering (spec/03 §9) with a spinner; a palette adds every node type through its dialog; a click
// highlights a node, a double click edits it, Backspace/Delete remove the selection, dragging from
// an output to a node connects them; undo/redo; Salvar checks the graph with flowSaveSchema first
// (refusals and lintFlow's warnings are written on the nodes) and posts POST /flowbuilder/flow.
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import {
  Background, BackgroundVariant, Controls, MiniMap, Panel, ReactFlow, ReactFlowProvider, useEdgesState, useNodesState, useReactFlow, useStore,
  type Connection, type NodeMouseHandler,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { FLOW_EDGE_TYPE, FLOW_LOAD_DELAY_MS, FLOW_NODE_TYPES, type FlowNodeType } from '@zapdesk/sync';
import { writeStoredJson } from '../../session/storage.ts';
import { useTheme } from '../../theme/theme.ts';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { flowApi } from '../flowbuilders/flow-api.ts';
import { edgeTypes } from './ButtonEdge.tsx';
import { answerKeysOf, checkFlow, connect, createNode, duplicateNode, fromEditor, pruneEdges, removeNode, toEditor, updateAnswerKeys, type EditorEdge, type EditorNode } from './flow-graph.ts';
import { EditorViewContext, NODE_STYLE, nodeTypes, zoomedOut, type EditorView } from './FlowNodeView.tsx';
import { NodeDialog, type NodeDialogState } from './NodeDialog.tsx';
import { OverviewCanvas, useShownEdges, type EdgePicker } from './OverviewCanvas.tsx';
import { emptyData, type Data } from './node-forms.ts';
import { TestPanel } from './TestPanel.tsx';
import { useHistory, useStableStructure } from './use-editor-history.ts';
import './strings.ts';

/** The minimap draws each node in its header's colour (NODE_STYLE's Tailwind shades). */
const MINIMAP_COLORS: Partial<Record<FlowNodeType, string>> = {
  start: '#059669', message: '#0284c7', interval: '#d97706', condition: '#7c3aed', menu: '#4f46e5', img: '#db2777', audio: '#db2777', video: '#db2777',
  singleBlock: '#0e7490', randomizer: '#c026d3', ticket: '#334155', question: '#0f766e', typebot: '#ea580c', openai: '#27272a',
};

const minimapColor = (n: { type?: string }) => MINIMAP_COLORS[n.type as FlowNodeType] ?? '#94a3b8';
/** spec/03 §9: Backspace and Delete remove the selection. */
const DELETE_KEYS = ['Backspace', 'Delete'];
const EDGE_OPTIONS = { type: FLOW_EDGE_TYPE };
const PRO_OPTIONS = { hideAttribution: true };
const CANVAS_STYLE = { backgroundColor: 'var(--zd-canvas)' };

/** The palette: every type but the start (one start per flow, always there). */
const PALETTE = FLOW_NODE_TYPES.filter((t) => t !== 'start');

export function Component() {
  const { id } = useParams();
  // /flowbuilder without an id (spec/03's route has it optional): a flow is made in the list first.
  if (!id || !(Number(id) > 0)) return <Navigate to="/flowbuilders" replace />;
  return (
    <ReactFlowProvider>
      <FlowEditor />
    </ReactFlowProvider>
  );
}

function FlowEditor() {
  const { t } = useTranslation();
  const { id } = useParams();
  const idFlow = Number(id);
  const { fitView, screenToFlowPosition } = useReactFlow();
  const [nodes, setNodes, onNodesChange] = useNodesState<EditorNode>([]);
  const [edges, setEdges, onEdgesChange] = useEdgesState<EditorEdge>([]);
  const [name, setName] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);
  const [dialog, setDialog] = useState<NodeDialogState | null>(null);
  const [highlight, setHighlight] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const [running, setRunning] = useState<string | null>(null);
  const [showChecks, setShowChecks] = useState(false);
  const history = useHistory(nodes, edges, setNodes, setEdges);
  const [theme] = useTheme();

  useEffect(() => {
    if (!Number.isInteger(idFlow) || idFlow <= 0) return;
    let live = true;
    const timer = setTimeout(() => {
      flowApi.load(idFlow).then(
        (loaded) => {
          if (!live) return;
          const g = toEditor(loaded.graph);
          setNodes(g.nodes);
          setEdges(g.edges);
          setName(loaded.name);
          writeStoredJson('variables', answerKeysOf(g.nodes));
          setLoading(false);
          requestAnimationFrame(() => void fitView({ padding: 0.15, maxZoom: 1 }));
        },
        (err: unknown) => {
          if (!live) return;
          toastError(err);
          setLoading(false);
        },
      );
    }, FLOW_LOAD_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [idFlow]);

  // The check runs on what the flow is, not on where its nodes are: dragging does not re-run it.
  const structure = useStableStructure(nodes, edges);
  const check = useMemo(() => checkFlow(idFlow > 0 ? idFlow : 1, structure.nodes, structure.edges), [structure, idFlow]);
  const errorCount = [...check.errors.values()].reduce((n, l) => n + l.length, 0) + check.general.length;
  const warningCount = [...check.warnings.values()].reduce((n, l) => n + l.length, 0);

  // The node callbacks read the latest graph from a ref, so the nodes' context stays the same while dragging.
  const live = useRef({ nodes, edges });
  live.current = { nodes, edges };
  // Every change is an undo step and leaves the flow unsaved until the next save.
  const [dirty, setDirty] = useState(false);
  const historyPush = history.push;
  const push = useCallback(() => {
    historyPush();
    setDirty(true);
  }, [historyPush]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const openEdit = useCallback((nodeId: string) => {
    const node = live.current.nodes.find((n) => n.id === nodeId);
    if (node && node.type !== 'start') setDialog({ mode: 'edit', type: node.type as FlowNodeType, nodeId, data: structuredClone(node.data) });
  }, []);

  const view: EditorView = useMemo(
    () => ({
      errors: showChecks ? check.errors : new Map(),
      warnings: check.warnings,
      highlight,
      running,
      onEdit: openEdit,
      onDuplicate: (nodeId) => {
        const node = live.current.nodes.find((n) => n.id === nodeId);
        if (!node) return;
        push();
        setNodes((all) => [...all, duplicateNode(node, all)]);
      },
      onDelete: (nodeId) => {
        push();
        const next = removeNode(live.current.nodes, live.current.edges, nodeId);
        setNodes(next.nodes);
        setEdges(next.edges);
        setHighlight((h) => (h === nodeId ? null : h));
      },
    }),
    [check, showChecks, highlight, running, openEdit, push],
  );

  const saveNode = (data: Data) => {
    if (!dialog) return;
    push();
    if (dialog.type === 'question') {
      const oldKey = dialog.mode === 'edit' ? String((dialog.data.typebotIntegration as Data | undefined)?.answerKey ?? '') : null;
      const stored = answerKeysOf(nodes);
      writeStoredJson('variables', updateAnswerKeys(stored, oldKey, String((data.typebotIntegration as Data).answerKey)));
    }
    if (dialog.mode === 'create') {
      setNodes((all) => [...all, createNode(dialog.type, data, all)]);
    } else {
      const next = nodes.map((n) => (n.id === dialog.nodeId ? { ...n, data } : n));
      setNodes(next);
      // A menu option removed takes its edge with it.
      setEdges((all) => pruneEdges(next, all));
    }
    setDialog(null);
  };

  const onConnect = useCallback(
    (c: Connection) => {
      push();
      setEdges((all) => connect(all, c.source, c.sourceHandle, c.target));
    },
    [push],
  );

  // Stable props: React Flow copies its props into its store on every render, and the editor renders
  // on every drag frame.
  const onNodeClick = useCallback<NodeMouseHandler<EditorNode>>((_, node) => setHighlight(node.id), []);
  const onNodeDoubleClick = useCallback<NodeMouseHandler<EditorNode>>((_, node) => openEdit(node.id), [openEdit]);
  const clearHighlight = useCallback(() => setHighlight(null), []);
  // In the overview most edges are painted on the canvas, not React Flow's: a click on the pane over
  // one selects it, as a click on its path does (its delete button and Backspace then work).
  const overview = useStore(zoomedOut);
  const shownEdges = useShownEdges(overview, nodes, edges);
  const pickEdge = useRef<EdgePicker | null>(null);
  const onPaneClick = useCallback(
    (e: ReactMouseEvent) => {
      setHighlight(null);
      const picked = pickEdge.current?.(screenToFlowPosition({ x: e.clientX, y: e.clientY }));
      if (!picked) return;
      setNodes((all) => all.map((n) => (n.selected ? { ...n, selected: false } : n)));
      setEdges((all) => all.map((x) => (x.id === picked ? { ...x, selected: true } : x.selected ? { ...x, selected: false } : x)));
    },
    [screenToFlowPosition],
  );
  // The pointer over a painted edge, as over a drawn one (not while a button is down: a drag).
  const onPaneMouseMove = useCallback(
    (e: ReactMouseEvent) => {
      if (e.buttons !== 0) return;
      const over = (pickEdge.current?.(screenToFlowPosition({ x: e.clientX, y: e.clientY })) ?? null) !== null;
      (e.currentTarget as HTMLElement).style.cursor = over ? 'pointer' : '';
    },
    [screenToFlowPosition],
  );
  const onBeforeDelete = useCallback(async () => {
    push();
    return true;
  }, [push]);

  const save = async () => {
    setShowChecks(true);
    if (check.graph === null) {
      toast.error(t('flowbuilder.notSaved', { count: errorCount }));
      return;
    }
    setSaving(true);
    try {
      await flowApi.save({ idFlow, ...fromEditor(nodes, edges) });
      toast.success(t('flowbuilder.saved'));
      setDirty(false);
      if (warningCount > 0) toast.warning(t('flowbuilder.savedWithWarnings', { count: warningCount }));
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="flex h-full flex-col">
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
          <Button variant="ghost" icon="undo" onClick={() => {
              history.undo();
              setDirty(true);
            }} disabled={!history.canUndo}>
            {t('flowbuilder.undo')}
          </Button>
          <Button variant="ghost" icon="reply" className="[&>svg]:-scale-x-100" onClick={() => {
              history.redo();
              setDirty(true);
            }} disabled={!history.canRedo}>
            {t('flowbuilder.redo')}
          </Button>
          <Button
            variant="secondary"
            icon="play"
            onClick={() => {
              // The conversation's node stands out better with nothing dimmed.
              setHighlight(null);
              setTesting((v) => !v);
            }}
            aria-pressed={testing}
          >
            {t('flowbuilder.test.open')}
          </Button>
          <Button onClick={() => void save()} busy={saving} disabled={loading}>
            {t('flowbuilder.save')}
          </Button>
        </div>
      </header>
      {showChecks && check.general.length > 0 && (
        <p role="alert" className="border-b border-danger/30 bg-danger-soft px-4 py-2 text-sm text-danger">
          {check.general.map((n) => (n.key ? t(`flowbuilder.${n.key}`, n.params) : n.message)).join(' · ')}
        </p>
      )}
      <div className="relative flex min-h-0 flex-1">
        <div className="relative min-h-[420px] flex-1" data-testid="flow-canvas">
          {loading && (
            <div className="absolute inset-0 z-10 flex items-center justify-center bg-canvas/70" role="status" aria-label={t('common.loading')}>
              <span className="size-8 animate-spin rounded-full border-4 border-brand border-t-transparent" />
            </div>
          )}
          <EditorViewContext.Provider value={view}>
            <ReactFlow<EditorNode, EditorEdge>
              nodes={nodes}
              edges={shownEdges}
              nodeTypes={nodeTypes}
              edgeTypes={edgeTypes}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={onConnect}
              onNodeClick={onNodeClick}
              onNodeDoubleClick={onNodeDoubleClick}
              onEdgeClick={clearHighlight}
              onPaneClick={onPaneClick}
              onPaneMouseMove={onPaneMouseMove}
              onNodeDragStart={push}
              onBeforeDelete={onBeforeDelete}
              colorMode={theme === 'dark' ? 'dark' : 'light'}
              style={CANVAS_STYLE}
              zoomOnDoubleClick={false}
              deleteKeyCode={DELETE_KEYS}
              minZoom={0.1}
              defaultEdgeOptions={EDGE_OPTIONS}
              proOptions={PRO_OPTIONS}
            >
              <DotGrid />
              <OverviewCanvas edges={edges} pickRef={pickEdge} />
              <Controls showInteractive={false} />
              {/* Square, unstroked nodes: at a minimap's scale their corners are under a pixel, and the
                  rounded, stroked ones were most of what repainting it cost on every frame of a drag. */}
              <MiniMap pannable zoomable nodeColor={minimapColor} nodeBorderRadius={0} nodeStrokeWidth={0} className="!hidden md:!block" />
              <Panel position="top-left">
                <Palette onPick={(type) => setDialog({ mode: 'create', type, nodeId: null, data: emptyData(type) })} />
              </Panel>
            </ReactFlow>
          </EditorViewContext.Provider>
        </div>
        {testing && (
          <div className="absolute inset-y-0 right-0 z-20 w-full sm:static sm:w-auto">
            <TestPanel graph={check.graph} onClose={() => setTesting(false)} onNode={setRunning} />
          </div>
        )}
      </div>
      {dialog && (
        <NodeDialog
          {...dialog}
          check={{ answerKeys: nodes.filter((n) => n.type === 'question').map((n) => ({ nodeId: n.id, key: String((n.data.typebotIntegration as Data | undefined)?.answerKey ?? '') })) }}
          onClose={() => setDialog(null)}
          onSave={saveNode}
        />
      )}
    </div>
  );
}

/** The floating menu of spec/03 §2: a button that opens the list of node types, each opening its create dialog. */
function Palette({ onPick }: { onPick: (type: FlowNodeType) => void }) {
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

/**
 * The canvas's dot grid, while the nodes draw as cards. Zoomed out to the overview its dots are a
 * few pixels apart, a texture rather than a guide (design tools fade their grids out there too), and
 * re-painting its pattern under a dragged node was what made a large flow miss frames.
 */
function DotGrid() {
  const overview = useStore(zoomedOut);
  return overview ? null : <Background variant={BackgroundVariant.Dots} gap={18} size={1.5} />;
}
