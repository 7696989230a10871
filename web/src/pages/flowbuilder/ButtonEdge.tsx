// The edge the editor draws (spec/03 §3 type 'buttonedge', §9 stroke 6 px): a bezier with a delete
// button at its middle while it is selected (a click selects it; Backspace or Delete removes it too).
import { useTranslation } from 'react-i18next';
import { BaseEdge, EdgeLabelRenderer, getBezierPath, useReactFlow, type EdgeProps } from '@xyflow/react';
import { FLOW_EDGE_STROKE_PX, FLOW_EDGE_TYPE } from '@zapdesk/sync';
import { Icon } from '../../ui/Icon.tsx';

export function ButtonEdge({ id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, selected, markerEnd }: EdgeProps) {
  const { t } = useTranslation();
  const { deleteElements } = useReactFlow();
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={{ strokeWidth: FLOW_EDGE_STROKE_PX, stroke: selected ? '#3b82f6' : '#94a3b8' }} />
      {selected && (
      <EdgeLabelRenderer>
        <button
          type="button"
          aria-label={t('flowbuilder.deleteEdge')}
          title={t('flowbuilder.deleteEdge')}
          onClick={() => void deleteElements({ edges: [{ id }] })}
          className="nodrag nopan pointer-events-auto absolute flex size-6 items-center justify-center rounded-full border border-line bg-surface text-muted shadow hover:text-danger"
          style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
        >
          <Icon name="x" className="size-3.5" />
        </button>
      </EdgeLabelRenderer>
      )}
    </>
  );
}

export const edgeTypes = { [FLOW_EDGE_TYPE]: ButtonEdge };
