import { deleteCommand } from '../shared.ts';

export default deleteCommand('announcement', (id) => `/announcements/${id}`, { examples: ['zapdesk announcements delete 1'] });
