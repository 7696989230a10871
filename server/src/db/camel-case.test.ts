import { CamelCasePlugin, type PluginTransformResultArgs, type QueryId, type UnknownRow } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ResultCamelCasePlugin } from './camel-case.ts';

const args = (rows: UnknownRow[]): PluginTransformResultArgs => ({ queryId: {} as QueryId, result: { rows, numAffectedRows: 3n } });

describe('ResultCamelCasePlugin', () => {
  it('renames every row as Kysely’s CamelCasePlugin does, nested plain objects included, other values untouched', async () => {
    const when = new Date('2026-11-29T12:00:00Z');
    const bytes = Buffer.from('abc');
    const rows = () => [
      { id: 1, ticket_id: 7, last_message: 'olá', created_at: when, media_data: bytes, flow_data: { answer_key: 'x', inner_list: [{ node_id: 2 }, 3] }, tags_list: [{ tag_name: 'vip' }, 'plain', null], quoted_msg_id: null },
      { id: 2, ticket_id: 8, last_message: '', created_at: when, media_data: null, flow_data: null, tags_list: [], quoted_msg_id: 5 },
    ];
    const ours = await new ResultCamelCasePlugin().transformResult(args(rows()));
    const kysely = await new CamelCasePlugin().transformResult(args(rows()));
    expect(ours).toEqual(kysely);
    expect(ours.rows[0]).toEqual({
      id: 1,
      ticketId: 7,
      lastMessage: 'olá',
      createdAt: when,
      mediaData: bytes,
      flowData: { answerKey: 'x', innerList: [{ nodeId: 2 }, 3] },
      tagsList: [{ tagName: 'vip' }, 'plain', null],
      quotedMsgId: null,
    });
    expect(Object.keys(ours.rows[1]!)).toEqual(['id', 'ticketId', 'lastMessage', 'createdAt', 'mediaData', 'flowData', 'tagsList', 'quotedMsgId']);
    expect(ours.numAffectedRows).toBe(3n);
  });

  it('maps each set of columns with its own copy, whatever the names', async () => {
    const plugin = new ResultCamelCasePlugin();
    const kysely = new CamelCasePlugin();
    const results = [
      [{ a_b: 1, c_d: 'x' }],
      [{ c_d: 'y', a_b: 2 }],
      [{ a_b: 3 }],
      [{ 'we"ird\\ name': 1, "it's_here": 2, 'line\nbreak': 3, 'toString': 4 }],
    ];
    for (const rows of results) {
      const ours = await plugin.transformResult(args(rows));
      expect(ours).toEqual(await kysely.transformResult(args(rows)));
      expect(Object.keys(ours.rows[0]!)).toEqual(Object.keys((await kysely.transformResult(args(rows))).rows[0]!));
    }
  });

  it('leaves results without rows, and rows that are not plain objects, as the plugin does', async () => {
    const plugin = new ResultCamelCasePlugin();
    expect(await plugin.transformResult(args([]))).toEqual({ rows: [], numAffectedRows: 3n });
    const arrays = [[1, 'a'] as unknown as UnknownRow];
    expect((await plugin.transformResult(args(arrays))).rows).toEqual((await new CamelCasePlugin().transformResult(args(arrays))).rows);
  });
});
