import { deleteCommand } from '../shared.ts';

export default deleteCommand('company', (id) => `/companies/${id}`, { examples: ['zapdesk companies delete 5'] });
