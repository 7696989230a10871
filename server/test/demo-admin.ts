// The demo company's admin against a server process (server/test/process.ts), for tests that
// restart the process: sign in (again after a restart), and calls that fail the test on an error.
import { expect } from 'vitest';
import { PROCESS_PASSWORD, type ServerProcess } from './process.ts';

export function demoAdmin() {
  let token = '';
  return {
    async login(s: ServerProcess): Promise<string> {
      token = (await s.request('POST', '/auth/login', { body: { email: 'admin@demo.zapdesk.local', password: PROCESS_PASSWORD } })).body.token as string;
      return token;
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async call(s: ServerProcess, method: string, route: string, body?: unknown): Promise<any> {
      const res = await s.request(method, route, { token, body });
      expect(res.status, `${method} ${route}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return res.body;
    },
  };
}
