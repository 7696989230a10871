// schedule/<id>: admins see every schedule of the company, other users the ones they created (the
// same rule as GET /schedules). The value is the REST answer for the row (one mapper, dto.ts), so
// it carries the contact's name and number and the author's name: the version folds in the
// contact's and the author's, so renaming either re-sends their schedules. A company whose plan
// lacks schedules sees none (REST refuses them too), and gets them back when the plan regains them.
import { isCompanyAdmin, type ScheduledMessage } from '@zapdesk/sync';
import { companyPlanAllows } from '../../auth/plan-gate.ts';
import { chunk, defineView, type RowId } from '../../sync/views/types.ts';
import { toScheduleDtos } from './dto.ts';

export const schedulesView = defineView({
  name: 'schedule',
  prefix: 'schedule',
  tables: ['schedules', 'contacts', 'users', 'companies', 'plans'],
  audience: (actor) => (isCompanyAdmin(actor) ? 'admin' : `user:${actor.userId}`),
  async listVersions({ db, t, actor }) {
    if (!(await companyPlanAllows(db, actor.companyId, 'schedules'))) return [];
    let query = t
      .selectFrom('schedules')
      .innerJoin('contacts', 'contacts.id', 'schedules.contactId')
      .leftJoin('users', 'users.id', 'schedules.userId')
      .select(['schedules.id', 'schedules.version', 'contacts.version as contactVersion', 'users.version as userVersion']);
    if (!isCompanyAdmin(actor)) query = query.where('schedules.userId', '=', actor.userId);
    const rows = await query.execute();
    return rows.map((r) => ({ id: r.id, version: `${r.version}:${r.contactVersion}:${r.userVersion ?? ''}` }));
  },
  async getValues({ db, t }, ids) {
    const out: { id: RowId; value: ScheduledMessage }[] = [];
    for (const part of chunk(ids as number[])) {
      const rows = await t.selectFrom('schedules').selectAll('schedules').where('schedules.id', 'in', part).execute();
      for (const dto of await toScheduleDtos(db, t.companyId, rows)) out.push({ id: dto.id, value: dto });
    }
    return out;
  },
});
