import { TEMPLATE_ALIASES, type TemplateVars } from '../domain/template.ts';
import type { FlowConditionOperator } from './nodes.ts';
import { foldFlowText, parseLooseNumber } from './text.ts';

// The condition node (spec/03 §3: key, condition, value). The key names a flow variable (an
// answer) or a contact field; texts compare case- and accent-insensitively with spaces collapsed,
// numbers compare as numbers. README.md has the table.

/**
 * The value a condition key names: `{{name}}`, `{name}` and `name` are the same key; flow variables
 * first, then the contact's fields and the template variables (aliases such as `nome` included).
 */
export function lookupFlowKey(key: string, variables: Record<string, string>, vars: TemplateVars): string | undefined {
  const name = key.trim().replace(/^\{\{\s*([^{}]*?)\s*\}\}$|^\{([^{}]*)\}$/, (_, a?: string, b?: string) => a ?? b ?? '').replace(/^contact\./, '');
  const own = (o: Record<string, string | undefined>, k: string) => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
  const alias = Object.prototype.hasOwnProperty.call(TEMPLATE_ALIASES, name) ? TEMPLATE_ALIASES[name] : undefined;
  return own(variables, name) ?? own(vars, name) ?? (alias !== undefined ? own(variables, alias) ?? own(vars, alias) : undefined);
}

/** Whether `actual` (undefined: the key has no value) satisfies `operator` against `expected`. */
export function evaluateCondition(actual: string | undefined, operator: FlowConditionOperator, expected: string): boolean {
  const present = actual !== undefined && actual.trim() !== '';
  if (operator === 'exists') return present;
  if (operator === 'notExists') return !present;
  const a = foldFlowText(actual ?? '');
  const b = foldFlowText(expected);
  const na = parseLooseNumber(actual ?? '');
  const nb = parseLooseNumber(expected);
  const numeric = na !== null && nb !== null;
  switch (operator) {
    case 'equals':
      return numeric ? na === nb : a === b;
    case 'notEquals':
      return numeric ? na !== nb : a !== b;
    case 'contains':
      return a.includes(b);
    case 'notContains':
      return !a.includes(b);
    case 'startsWith':
      return a.startsWith(b);
    case 'endsWith':
      return a.endsWith(b);
    // Ordering only between two numbers: "abc" is neither greater nor less than 10.
    case 'greater':
      return numeric && na > nb;
    case 'greaterOrEqual':
      return numeric && na >= nb;
    case 'less':
      return numeric && na < nb;
    case 'lessOrEqual':
      return numeric && na <= nb;
  }
}
