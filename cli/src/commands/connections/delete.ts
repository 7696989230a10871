import { deleteCommand } from '../shared.ts';

export default deleteCommand('connection', (id) => `/whatsapp/${id}`, { examples: ['zapdesk connections delete 3'] });
