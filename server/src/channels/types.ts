// The seam between zapdesk and a WhatsApp network. Only adapters know their network; the session
// manager, the inbound pipeline and the outbox dispatcher speak this interface alone.

export type ConnectionStatus = 'qrcode' | 'PAIRING' | 'OPENING' | 'CONNECTED' | 'DISCONNECTED' | 'TIMEOUT';

export type MediaType = 'image' | 'audio' | 'video' | 'document' | 'sticker' | 'location' | 'vcard' | 'call_log';

/** A peer on the network: a phone-number JID and/or a LID; never assume the number is present. */
export type Peer = {
  /** Phone-number JID, e.g. 5511999990000@s.whatsapp.net, when known. */
  jid?: string;
  /** Linked-identity JID, e.g. 12345@lid, when known. */
  lid?: string;
  /** Digits only, when known. */
  number?: string;
  name?: string;
  isGroup?: boolean;
};

export type InboundMessage = {
  /** The network's message id; with the connection id it makes the message unique. */
  id: string;
  from: Peer;
  /** Sent by this connection from another device (WhatsApp on the phone). */
  fromMe: boolean;
  timestamp: string;
  body: string;
  mediaType?: MediaType;
  media?: { data: Buffer; mimeType: string; fileName?: string };
  location?: { latitude: number; longitude: number; description?: string };
  vcard?: string;
  quotedId?: string;
  /** Group messages: who in the group wrote it. */
  participant?: Peer;
};

export type OutboundContent =
  | { kind: 'text'; body: string }
  | { kind: 'media'; mediaType: 'image' | 'audio' | 'video' | 'document'; data: Buffer; mimeType: string; fileName: string; caption?: string; ptt?: boolean }
  | { kind: 'location'; latitude: number; longitude: number; description?: string }
  | { kind: 'vcard'; displayName: string; vcard: string };

export type SendRequest = { to: Peer; content: OutboundContent; quotedId?: string };
export type SendResult = { id: string; timestamp: string };

/**
 * A message already delivered changed on the network: its sender edited its text, or deleted it for
 * everyone (a revoke). `id` is the changed message's network id, not the id of the protocol message.
 */
export type MessageChange = { id: string; timestamp: string } & ({ kind: 'edit'; body: string } | { kind: 'revoke' });

/** Ack levels as the spec numbers them: 1 sent (server), 2 delivered, 3 read, 4 read (coloured), 5 played. */
export type Ack = 0 | 1 | 2 | 3 | 4 | 5;

// Listeners may return a promise: adapters that can wait (the simulator) resolve their HTTP
// controls only after every listener settled, so a test sees the ticket when the call returns.
export type ChannelEvents = {
  qr: (qr: string, attempt: number) => void;
  /** Pairing by code (connect with `pairingCodeFor`): the code to type on the phone, e.g. ABCD-EFGH. */
  pairingCode: (code: string) => void;
  /** `attempt`: the reconnect attempt while OPENING after a drop (added for the retries column). */
  status: (status: ConnectionStatus, detail?: { reason?: string; number?: string; attempt?: number }) => void;
  message: (message: InboundMessage) => void | Promise<void>;
  ack: (update: { id: string; ack: Ack; to?: Peer }) => void | Promise<void>;
  /** An edit or a revoke of a message delivered before (Baileys: messages.update). */
  change: (change: MessageChange) => void | Promise<void>;
  /** A missed voice or video call. The session manager hands it on as an InboundMessage of mediaType call_log. */
  call: (call: { id: string; from: Peer; timestamp: string; video: boolean }) => void | Promise<void>;
};

export type ChannelEventName = keyof ChannelEvents;

/** One paired account on the network. Adapters throw AppError with ERR_WAPP_* / ERR_SENDING_WAPP_MSG codes. */
export type Channel = {
  readonly connectionId: number;
  readonly provider: string;
  /**
   * Starts the session: emits `qr` until paired (or `status` CONNECTED if credentials are stored).
   * With `pairingCodeFor` (the phone's number, digits) it also emits `pairingCode` once the network
   * issued one: typed on that phone (Linked devices → Link with phone number), it pairs as a scan does.
   */
  connect(opts?: { pairingCodeFor?: string }): Promise<void>;
  /** Closes the socket but keeps the credentials. */
  disconnect(): Promise<void>;
  /**
   * Unpairs and wipes the credentials. With `keepStore` the stored credentials stay, for a caller that
   * removes them itself: a connection's delete wipes its keys a slice at a time, the connection
   * marked so that no session starts on it meanwhile (modules/whatsapps/service.ts).
   */
  logout(opts?: { keepStore?: boolean }): Promise<void>;
  status(): ConnectionStatus;
  on<E extends ChannelEventName>(event: E, listener: ChannelEvents[E]): () => void;
  send(request: SendRequest): Promise<SendResult>;
  /** Which of the numbers exist on the network, with their JIDs. */
  checkNumbers(numbers: string[]): Promise<{ number: string; exists: boolean; jid?: string }[]>;
  profilePictureUrl(peer: Peer): Promise<string | undefined>;
  markRead(peer: Peer, messageIds: string[]): Promise<void>;
  /** Deletes a sent message for everyone; throws ERR_DELETE_WAPP_MSG when the network refuses. */
  deleteMessage(peer: Peer, messageId: string): Promise<void>;
  /** The paired account's address book (POST /contacts/import); empty before pairing. */
  listContacts(): Promise<Peer[]>;
};

export type ChannelFactory = (connection: { id: number; companyId: number; provider: string }) => Channel;
