// The editor builds keys from data (node types, operators, outputs, rules, chat notes), which the
// translations test cannot see in the source: every such key exists in every language.
import { describe, expect, it } from 'vitest';
import { CONTENT_ELEMENT_TYPES, FLOW_CONDITION_OPERATORS, FLOW_HANDLES, FLOW_NODE_TYPES } from '@zapdesk/sync';
import { ruleKey } from './node-forms.ts';
import { strings } from './strings.ts';

type Tree = { [k: string]: string | Tree };
const has = (tree: Tree, key: string) => typeof key.split('.').reduce<Tree | string | undefined>((t, k) => (t && typeof t === 'object' ? t[k] : undefined), tree) === 'string';

describe('flow editor strings', () => {
  const handles = Object.values(FLOW_HANDLES as Record<string, unknown>).filter((h): h is string => typeof h === 'string');
  const rules = ['intervalRequired', 'intervalMax', 'emptyMessage', 'emptyCards', 'contentInterval', 'queueRequired', 'integrationRequired', 'required', 'answerKeyFormat', 'answerKeyUsed', 'emptyOption', 'menuNeedsOption', 'duplicateOption', 'conditionKey', 'invalid', 'tooBig', 'badType'];
  const keys = [
    ...FLOW_NODE_TYPES.map((t) => `nodes.${t}`),
    ...FLOW_CONDITION_OPERATORS.map((o) => `operators.${o}`),
    ...handles.filter((h) => !/^a\d/.test(h)).map((h) => `handles.${h}`),
    ...CONTENT_ELEMENT_TYPES.map((c) => `content.${c}`),
    ...rules.map((r) => `rules.${r}`),
    ...['nothingLeaves', 'twoEdges', 'noSuchOutput', 'missingNode', 'noStart'].map((k) => `graph.${k}`),
    ...['unreachable', 'unconnected_output', 'duplicate_answer_key', 'loop_without_wait'].map((k) => `warnings.${k}`),
    ...['wait', 'answerWindow', 'queue', 'handover', 'ask', 'error', 'end', 'ignored', 'notRunning'].map((n) => `test.notes.${n}`),
  ];
  for (const lang of ['en', 'pt', 'es'] as const) {
    it(`${lang} words every key the editor builds`, () => {
      expect(keys.filter((k) => !has(strings[lang] as Tree, k))).toEqual([]);
    });
  }

  it('every schema message the dialogs may show maps to a rule', () => {
    for (const m of ['Adicione o valor de intervalo', 'Máximo de tempo atingido 120 segundos', 'Campos de mensagem vazio!', 'Delete os cards vazios(Imagem, Audio e Video)', 'O intervalo não pode ser 0 ou maior que 120', 'Adicione uma fila']) {
      expect(rules).toContain(ruleKey(m));
      expect(ruleKey(m)).not.toBe('invalid');
    }
  });

  it('the spec wording stays in Portuguese (spec/03 §2, §8)', () => {
    expect(strings.pt).toMatchObject({ title: 'Desenhe seu fluxo', reminder: 'Não se esqueça de salvar seu fluxo!', save: 'Salvar', saved: 'Fluxo salvo com sucesso', imageAdded: 'Imagem adicionada com sucesso!' });
  });
});
