import { deleteCommand } from '../shared.ts';

export default deleteCommand('contact', (id) => `/contacts/${id}`, { examples: ['zapdesk contacts delete 42', 'zapdesk contacts delete 42 --yes --json'] });
