// Salvar (spec/03 §2): the save check on what the flow is (flowSaveSchema's refusals and lintFlow's
// warnings, written on the nodes once a save was tried), the save itself (POST /flowbuilder/flow,
// refused here while the check has errors), and the unsaved state, which warns before the page is left.
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { flowApi } from '../flowbuilders/flow-api.ts';
import { checkFlow, fromEditor, type EditorEdge, type EditorNode } from './flow-graph.ts';
import { useStableStructure } from './use-editor-history.ts';

export function useFlowSave(idFlow: number, nodes: EditorNode[], edges: EditorEdge[]) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const [showChecks, setShowChecks] = useState(false);
  // Every change leaves the flow unsaved until the next save.
  const [dirty, setDirty] = useState(false);

  // The check runs on what the flow is, not on where its nodes are: dragging does not re-run it.
  const structure = useStableStructure(nodes, edges);
  const check = useMemo(() => checkFlow(idFlow > 0 ? idFlow : 1, structure.nodes, structure.edges), [structure, idFlow]);
  const errorCount = [...check.errors.values()].reduce((n, l) => n + l.length, 0) + check.general.length;
  const warningCount = [...check.warnings.values()].reduce((n, l) => n + l.length, 0);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

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

  return { check, errorCount, warningCount, showChecks, saving, save, dirty, setDirty };
}
