import type { Group } from '../../define.ts';
import flood from './flood.ts';
import scan from './scan.ts';
import send from './send.ts';

export const sim: Group = {
  description: 'The built-in WhatsApp simulator (server started with SIMULATOR=1): scan, send, flood',
  commands: { scan, send, flood },
};
