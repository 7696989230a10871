import { deleteCommand } from '../shared.ts';

export default deleteCommand('webhook', (id) => `/webhooks/${id}`, { examples: ['zapdesk webhooks delete 3', 'zapdesk webhooks delete 3 --yes'] });
