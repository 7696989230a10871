import type { Group } from '../../define.ts';
import edit from './edit.ts';
import flood from './flood.ts';
import revoke from './revoke.ts';
import scan from './scan.ts';
import send from './send.ts';

export const sim: Group = {
  description: 'The built-in WhatsApp simulator (server started with SIMULATOR=1): scan, send, edit, revoke, flood',
  commands: { scan, send, edit, revoke, flood },
};
