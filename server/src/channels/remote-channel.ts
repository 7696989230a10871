// The network questions a request may ask of a connection (which numbers exist, its address book,
// delete a message for everyone, read receipts), from any instance (DESIGN §11): answered by the
// local channel when the session runs here, else by the lease holder over the bus (holder.ts).
// Sends never come here: they are outbox rows, dispatched by the holder (../outbound/).
import { AppError } from '@zapdesk/sync';
import type { Routing, Target } from './holder.ts';
import type { Channel, Peer } from './types.ts';

/** What a non-holder may ask of a connection: the network calls of Channel that are not sends. */
export type ChannelQueries = Pick<Channel, 'checkNumbers' | 'profilePictureUrl' | 'markRead' | 'deleteMessage' | 'listContacts'>;

export function createRemoteChannels(routing: Routing, local: (connectionId: number) => Channel | undefined) {
  /** The session running here, connected; else ERR_WAPP_NOT_INITIALIZED, as a send would meet. */
  const connected = (connectionId: number) => {
    const channel = local(connectionId);
    if (!channel || channel.status() !== 'CONNECTED') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return channel;
  };
  routing.register({
    'channel.checkNumbers': (a) => connected(a.connectionId).checkNumbers(a.numbers as string[]),
    'channel.profilePictureUrl': async (a) => (await connected(a.connectionId).profilePictureUrl(a.peer as Peer)) ?? null,
    'channel.markRead': (a) => connected(a.connectionId).markRead(a.peer as Peer, a.messageIds as string[]),
    'channel.deleteMessage': (a) => connected(a.connectionId).deleteMessage(a.peer as Peer, String(a.messageId)),
    'channel.listContacts': (a) => connected(a.connectionId).listContacts(),
  });

  return {
    /**
     * The connection's queries wherever its session runs; each call answers ERR_WAPP_NOT_INITIALIZED
     * when no instance has it connected.
     */
    queries(t: Target): ChannelQueries {
      const run = <T>(op: string, args: Record<string, unknown>, here: (c: Channel) => Promise<T>) => routing.onHolder<T>(t, `channel.${op}`, args, () => here(connected(t.connectionId)));
      return {
        checkNumbers: (numbers) => run('checkNumbers', { numbers }, (c) => c.checkNumbers(numbers)),
        profilePictureUrl: async (peer) => (await run<string | null>('profilePictureUrl', { peer }, async (c) => (await c.profilePictureUrl(peer)) ?? null)) ?? undefined,
        markRead: (peer, messageIds) => run('markRead', { peer, messageIds }, (c) => c.markRead(peer, messageIds)),
        deleteMessage: (peer, messageId) => run('deleteMessage', { peer, messageId }, (c) => c.deleteMessage(peer, messageId)),
        listContacts: () => run('listContacts', {}, (c) => c.listContacts()),
      };
    },
  };
}
