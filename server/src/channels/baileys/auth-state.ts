// Baileys' AuthenticationState over the database (baileys_creds + baileys_keys), in place of its
// file-based useMultiFileAuthState: values go through BufferJSON so Buffers survive the round trip.
import { BufferJSON, initAuthCreds, proto, type AuthenticationCreds, type AuthenticationState, type SignalDataTypeMap } from '@whiskeysockets/baileys';
import type { AuthStore } from '../auth-store.ts';

export async function loadAuthState(store: AuthStore): Promise<{ state: AuthenticationState; saveCreds: () => Promise<void> }> {
  const stored = await store.readCreds();
  const parsed = stored ? (JSON.parse(stored, BufferJSON.reviver) as Partial<AuthenticationCreds> & { simulator?: boolean }) : undefined;
  // A row written by the simulator (the provider was switched) is no pairing Baileys can use.
  const creds: AuthenticationCreds = parsed && !parsed.simulator && parsed.noiseKey ? (parsed as AuthenticationCreds) : initAuthCreds();
  return {
    state: {
      creds,
      keys: {
        async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
          const rows = await store.readKeys(type, ids);
          const out: { [id: string]: SignalDataTypeMap[T] } = {};
          for (const [id, raw] of rows) {
            let value = JSON.parse(raw, BufferJSON.reviver);
            if (type === 'app-state-sync-key' && value) value = proto.Message.AppStateSyncKeyData.fromObject(value);
            out[id] = value as SignalDataTypeMap[T];
          }
          return out;
        },
        async set(data) {
          const entries: { type: string; keyId: string; value: string | null }[] = [];
          for (const [type, values] of Object.entries(data)) {
            for (const [keyId, value] of Object.entries(values ?? {})) {
              entries.push({ type, keyId, value: value ? JSON.stringify(value, BufferJSON.replacer) : null });
            }
          }
          await store.writeKeys(entries);
        },
      },
    },
    saveCreds: () => store.writeCreds(JSON.stringify(creds, BufferJSON.replacer)),
  };
}
