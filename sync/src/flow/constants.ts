// The flow builder's numbers (spec/03 §9) and the engine's own limits where the spec is silent
// (documented in README.md). One place, read by the schema, the engine, the server runtime and the
// editor alike.

/** The one start node's id, label and initial position (spec/03 §3). */
export const FLOW_START_NODE_ID = '1';
export const FLOW_START_LABEL = 'Inicio do fluxo';
export const FLOW_START_POSITION = { x: 250, y: 100 } as const;

/** Longest wait of an interval node or of a content block's interval (spec/03 §5, §9). */
export const FLOW_INTERVAL_MAX_SEC = 120;
/** Node ids are random 30-character alphanumerics (spec/03 §3, §9). */
export const FLOW_NODE_ID_LENGTH = 30;
/** New node spacing and duplicate offset in the editor (spec/03 §4, §9). */
export const FLOW_NODE_SPACING = 40;
export const FLOW_DUPLICATE_OFFSET = 240;
/** The randomizer slider (spec/03 §9): 0 to 100 step 10, the other branch gets the remainder. */
export const FLOW_RANDOMIZER_STEP = 10;
/** Flow load delay in the editor and its toast auto-close (spec/03 §9). */
export const FLOW_LOAD_DELAY_MS = 500;
export const FLOW_TOAST_MS = 3000;
/** The edge type the editor draws (spec/03 §3) and its stroke (spec/03 §9). */
export const FLOW_EDGE_TYPE = 'buttonedge';
export const FLOW_EDGE_STROKE_PX = 6;

// Ours (the spec is silent):

/** Nodes one event may run before the engine calls it a loop and ends the flow. */
export const FLOW_MAX_STEPS_PER_EVENT = 50;
/** Invalid answers a menu takes (each one re-prompted) before it follows its "invalid" path. */
export const FLOW_MENU_MAX_INVALID = 3;
/** How long a menu or question waits when its "timeout" path is drawn and no timeoutSec is set. */
export const FLOW_INPUT_TIMEOUT_SEC = 300;
/** Longest timeoutSec a menu or question may set (a day). */
export const FLOW_INPUT_TIMEOUT_MAX_SEC = 86_400;
/** What an invalid menu answer gets before the menu is sent again, unless the node sets its own. */
export const FLOW_INVALID_OPTION_MESSAGE = 'Opção inválida. Responda com o número de uma das opções abaixo.';
