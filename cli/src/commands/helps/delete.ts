import { deleteCommand } from '../shared.ts';

export default deleteCommand('help', (id) => `/helps/${id}`, { examples: ['zapdesk helps delete 1'] });
