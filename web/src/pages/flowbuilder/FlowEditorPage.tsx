// /flowbuilder/:id (spec/03 §2 "Flow editor"): the flow drawn with React Flow. Loads 500 ms after
// entering (spec/03 §9) with a spinner; a palette adds every node type through its dialog; a click
// highlights a node, a double click edits it, Backspace/Delete remove the selection, dragging from
// an output to a node connects them; undo/redo; Salvar checks the graph with flowSaveSchema first
// (refusals and lintFlow's warnings are written on the nodes) and posts POST /flowbuilder/flow.
// This file holds the editor's state and what changes the graph; the header is EditorToolbar, the
// canvas FlowCanvas, loading and saving their hooks.
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useBlocker, useParams } from 'react-router';
import { ReactFlowProvider, useEdgesState, useNodesState, type Connection } from '@xyflow/react';
import type { FlowNodeType } from '@zapdesk/sync';
import { writeStoredJson } from '../../session/storage.ts';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { EditorToolbar } from './EditorToolbar.tsx';
import { useFitFlow, useRevealNode } from './fit-view.ts';
import { FlowCanvas } from './FlowCanvas.tsx';
import { answerKeysOf, connect, createNode, duplicateNode, pruneEdges, removeNode, updateAnswerKeys, type EditorEdge, type EditorNode } from './flow-graph.ts';
import { EditorViewContext, type EditorView } from './FlowNodeView.tsx';
import { NodeDialog, type NodeDialogState } from './NodeDialog.tsx';
import { emptyData, type Data } from './node-forms.ts';
import { TestPanel } from './TestPanel.tsx';
import { useHistory } from './use-editor-history.ts';
import { useFlowLoad } from './use-flow-load.ts';
import { useFlowSave } from './use-flow-save.ts';
import './strings.ts';

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
  const fit = useFitFlow();
  const reveal = useRevealNode();
  const [nodes, setNodes, onNodesChange] = useNodesState<EditorNode>([]);
  const [edges, setEdges, onEdgesChange] = useEdgesState<EditorEdge>([]);
  const [dialog, setDialog] = useState<NodeDialogState | null>(null);
  const [highlight, setHighlight] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const [running, setRunning] = useState<string | null>(null);
  const history = useHistory(nodes, edges, setNodes, setEdges);
  const { name, loading } = useFlowLoad(idFlow, { setNodes, setEdges, fit });
  const { check, errorCount, warningCount, showChecks, saving, save, dirty, setDirty } = useFlowSave(idFlow, nodes, edges);
  const leaving = useLeaveGuard(dirty);

  // The node callbacks read the latest graph from a ref, so the nodes' context stays the same while dragging.
  const live = useRef({ nodes, edges });
  live.current = { nodes, edges };
  // Every change is an undo step and leaves the flow unsaved until the next save.
  const historyPush = history.push;
  const push = useCallback(() => {
    historyPush();
    setDirty(true);
  }, [historyPush, setDirty]);
  // A drag's undo step: the graph as it was when the button went down, recorded once a node moved.
  const historySnapshot = history.snapshot;
  const beginDrag = useCallback(() => {
    const before = historySnapshot();
    return () => {
      historyPush(before);
      setDirty(true);
    };
  }, [historyPush, historySnapshot, setDirty]);

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
      const node = createNode(dialog.type, data, nodes);
      setNodes((all) => [...all, node]);
      reveal(node.id);
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
  const openCreate = useCallback((type: FlowNodeType) => setDialog({ mode: 'create', type, nodeId: null, data: emptyData(type) }), []);

  return (
    <div className="flex h-full flex-col">
      <EditorToolbar
        name={name}
        dirty={dirty}
        errorCount={errorCount}
        warningCount={warningCount}
        showChecks={showChecks}
        history={{
          undo: () => {
            history.undo();
            setDirty(true);
          },
          redo: () => {
            history.redo();
            setDirty(true);
          },
          canUndo: history.canUndo,
          canRedo: history.canRedo,
        }}
        testing={testing}
        onToggleTest={() => {
          // The conversation's node stands out better with nothing dimmed.
          setHighlight(null);
          setTesting((v) => !v);
        }}
        onSave={() => void save()}
        saving={saving}
        loading={loading}
      />
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
            <FlowCanvas
              nodes={nodes}
              edges={edges}
              setNodes={setNodes}
              setEdges={setEdges}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={onConnect}
              onHighlight={setHighlight}
              onEdit={openEdit}
              onBeforeChange={push}
              onBeginDrag={beginDrag}
              onPick={openCreate}
            />
          </EditorViewContext.Provider>
        </div>
        {testing && (
          <div className="absolute inset-y-0 right-0 z-20 w-full sm:static sm:w-auto">
            <TestPanel graph={check.graph} onClose={() => setTesting(false)} onNode={setRunning} />
          </div>
        )}
      </div>
      <ConfirmDialog
        open={leaving.asking}
        title={t('flowbuilder.leaveTitle')}
        message={t('flowbuilder.leaveMessage')}
        confirmLabel={t('flowbuilder.leaveConfirm')}
        onConfirm={leaving.leave}
        onClose={leaving.stay}
      />
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

/**
 * Unsaved work is not dropped without asking: a move to another page (the back arrow, the menu)
 * waits for the user's answer. Closing or reloading the tab gets the browser's own question
 * (use-flow-save.ts).
 */
function useLeaveGuard(dirty: boolean) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  return {
    asking: blocker.state === 'blocked',
    leave: () => blocker.proceed?.(),
    stay: () => blocker.reset?.(),
  };
}
