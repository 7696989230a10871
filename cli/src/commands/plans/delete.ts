import { deleteCommand } from '../shared.ts';

export default deleteCommand('plan', (id) => `/plans/${id}`, { examples: ['zapdesk plans delete 3'] });
