import { describe, expect, it } from 'vitest';
import { FLOW_NODE_TYPES } from '@zapdesk/sync';
import { addElement, checkNodeData, checkUpload, contentData, elementsInOrder, emptyData, moveElement, randomizerSplit, uploadPathOf } from './node-forms.ts';

const create = { nodeId: null, answerKeys: [] };
const errorsOf = (r: ReturnType<typeof checkNodeData>) => (r.ok ? {} : r.errors);

describe('node dialogs', () => {
  it('interval: required, positive, at most 120 s, labelled "Intervalo N seg." (spec/03 §3, §5)', () => {
    expect(errorsOf(checkNodeData('interval', { sec: '' }, create))).toEqual({ sec: 'intervalRequired' });
    expect(errorsOf(checkNodeData('interval', { sec: 0 }, create))).toEqual({ sec: 'intervalRequired' });
    expect(errorsOf(checkNodeData('interval', { sec: 121 }, create))).toEqual({ sec: 'intervalMax' });
    expect(checkNodeData('interval', { sec: '120' }, create)).toEqual({ ok: true, data: { sec: '120', label: 'Intervalo 120 seg.' } });
  });

  it('question: message and answer name required, a name a template can use, one question per name', () => {
    expect(errorsOf(checkNodeData('question', emptyData('question'), create))).toEqual({ 'typebotIntegration.message': 'required', 'typebotIntegration.answerKey': 'required' });
    expect(errorsOf(checkNodeData('question', { typebotIntegration: { message: 'Nome?', answerKey: 'nome cliente' } }, create))).toEqual({ 'typebotIntegration.answerKey': 'answerKeyFormat' });
    const others = { answerKeys: [{ nodeId: 'q1', key: 'nome' }] };
    expect(errorsOf(checkNodeData('question', { typebotIntegration: { message: 'Nome?', answerKey: ' nome ' } }, { ...others, nodeId: null }))).toEqual({ 'typebotIntegration.answerKey': 'answerKeyUsed' });
    // Editing the question that owns the name is not a clash; the name is stored trimmed.
    expect(checkNodeData('question', { typebotIntegration: { message: 'Nome?', answerKey: ' nome ' } }, { ...others, nodeId: 'q1' })).toEqual({ ok: true, data: { typebotIntegration: { message: 'Nome?', answerKey: 'nome' } } });
  });

  it('menu: options numbered in order, none empty, at least one', () => {
    const r = checkNodeData('menu', { message: 'Oi', arrayOption: [{ number: 4, value: ' Vendas ' }, { number: 9, value: 'Suporte' }] }, create);
    expect(r).toEqual({ ok: true, data: { message: 'Oi', arrayOption: [{ number: 1, value: 'Vendas' }, { number: 2, value: 'Suporte' }] } });
    expect(errorsOf(checkNodeData('menu', { message: 'Oi', arrayOption: [{ number: 1, value: '' }] }, create))).toEqual({ 'arrayOption.0.value': 'emptyOption' });
    expect(errorsOf(checkNodeData('menu', { message: 'Oi', arrayOption: [] }, create))).toEqual({ arrayOption: 'menuNeedsOption' });
  });

  it('ticket needs a queue; message, media and condition need their field', () => {
    expect(errorsOf(checkNodeData('ticket', {}, create))).toEqual({ queueId: 'queueRequired' });
    expect(checkNodeData('ticket', { queueId: 2, queue: { id: 2, name: 'Vendas' } }, create).ok).toBe(true);
    expect(errorsOf(checkNodeData('message', { label: '  ' }, create))).toEqual({ label: 'emptyMessage' });
    expect(errorsOf(checkNodeData('img', { url: '' }, create))).toEqual({ url: 'emptyCards' });
    expect(errorsOf(checkNodeData('condition', { key: '', condition: 'equals', value: 'x' }, create))).toEqual({ key: 'conditionKey' });
  });

  it('typebot: a step drawn in the editor chooses its integration', () => {
    expect(errorsOf(checkNodeData('typebot', emptyData('typebot'), create))).toEqual({ 'typebotIntegration.id': 'integrationRequired' });
    expect(checkNodeData('typebot', { typebotIntegration: { id: 3, name: 'Vendas' } }, create)).toEqual({ ok: true, data: { typebotIntegration: { id: 3, name: 'Vendas' } } });
  });

  it('openai: name, apiKey and prompt required; the project name copies the name on create', () => {
    expect(Object.keys(errorsOf(checkNodeData('openai', emptyData('openai'), create))).sort()).toEqual(['typebotIntegration.apiKey', 'typebotIntegration.name', 'typebotIntegration.prompt']);
    const filled = { typebotIntegration: { ...(emptyData('openai').typebotIntegration as object), name: 'Assistente', apiKey: 'sk-1', prompt: 'Você é um assistente.' } };
    const r = checkNodeData('openai', filled, create);
    expect(r.ok && (r.data.typebotIntegration as { projectName: string }).projectName).toBe('Assistente');
  });

  it('every node type has empty data its dialog starts from', () => {
    for (const t of FLOW_NODE_TYPES) expect(emptyData(t), t).toBeTypeOf('object');
  });
});

describe('content block', () => {
  it('rejects empty texts, 0 or >120 s waits and empty media cards (spec/03 §5)', () => {
    let list = addElement([], 'message');
    list = addElement(list, 'interval');
    list = addElement(list, 'img');
    list = list.map((e) => (e.type === 'interval' ? { ...e, value: '0' } : e));
    expect(errorsOf(checkNodeData('singleBlock', contentData(list), create))).toEqual({ 'elements.0.value': 'emptyMessage', 'elements.1.value': 'contentInterval', 'elements.2.value': 'emptyCards' });
    expect(errorsOf(checkNodeData('singleBlock', contentData([]), create))).toEqual({ seq: 'emptyMessage' });
  });

  it('gives new cards ids never used in the block, keeps seq in card order, and moves cards', () => {
    let list = addElement(addElement([], 'message'), 'img');
    list = addElement(list.slice(1), 'message');
    expect(list.map((e) => e.number)).toEqual(['img2', 'message3']);
    list = moveElement(list, 1, -1);
    expect(contentData(list).seq).toEqual(['message3', 'img2']);
    expect(moveElement(list, 0, -1)).toBe(list);
  });

  it('reads old blocks whose kind is only the id prefix', () => {
    const data = { seq: ['message0', 'interval1'], elements: [{ number: 'interval1', value: '2' }, { number: 'message0', value: 'Oi' }] };
    expect(elementsInOrder(data).map((e) => [e.number, e.type])).toEqual([['message0', 'message'], ['interval1', 'interval']]);
  });
});

describe('uploads (spec/03 §5, §7)', () => {
  const MB = 1024 * 1024;
  it('caps images at 2 MB (png, jpg, jpeg), audio at 5 MB (ogg, mp3; opus in content), video at 20 MB (mp4)', () => {
    expect(checkUpload('img', { name: 'a.PNG', size: 2 * MB })).toBeNull();
    expect(checkUpload('img', { name: 'a.png', size: 2 * MB + 1 })).toMatchObject({ key: 'tooBig', mb: 2 });
    expect(checkUpload('img', { name: 'a.gif', size: 10 })).toMatchObject({ key: 'badType' });
    expect(checkUpload('audio', { name: 'a.opus', size: 10 })).toMatchObject({ key: 'badType' });
    expect(checkUpload('audio', { name: 'a.opus', size: 10 }, true)).toBeNull();
    expect(checkUpload('audio', { name: 'a.mp3', size: 6 * MB })).toMatchObject({ key: 'tooBig', mb: 5 });
    expect(checkUpload('video', { name: 'a.mov', size: 10 })).toMatchObject({ key: 'badType' });
    expect(checkUpload('video', { name: 'a.mp4', size: 21 * MB })).toMatchObject({ key: 'tooBig', mb: 20 });
  });

  it('goes to /img and /audio for their nodes, /content for video and content cards', () => {
    expect([uploadPathOf('img', false), uploadPathOf('audio', false), uploadPathOf('video', false), uploadPathOf('img', true), uploadPathOf('audio', true)]).toEqual(['img', 'audio', 'content', 'content', 'content']);
  });
});

it('the randomizer moves in steps of 10 and the other branch gets the rest', () => {
  expect(randomizerSplit(73)).toEqual({ a: 70, b: 30 });
  expect(randomizerSplit(100)).toEqual({ a: 100, b: 0 });
  expect(randomizerSplit(-5)).toEqual({ a: 0, b: 100 });
});
