import { stopCommand } from './actions.ts';

export default stopCommand('cancel');
