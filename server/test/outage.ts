// A network between a client and the live app that a test can cut and restore: a TCP proxy on its
// own port. Cut, its open connections (keep-alive HTTP, the poke socket) are closed and new ones
// are refused, which is what a client sees when the network goes away; restored, it listens on the
// same port again. The app itself keeps running and stays reachable in-process (`live.request`).
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export type Outage = Awaited<ReturnType<typeof startOutageProxy>>;

export async function startOutageProxy(target: string) {
  const { hostname, port: targetPort } = new URL(target);
  const open = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    open.add(socket);
    socket.on('error', () => {}); // a reset is the point of the exercise
    socket.on('close', () => open.delete(socket));
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(targetPort), hostname);
    track(client);
    track(upstream);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;

  async function cut() {
    if (!server.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of open) socket.destroy();
    await closed;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    cut,
    restore: () => listen(port),
    close: cut,
  };
}
