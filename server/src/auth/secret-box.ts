// Secrets a company stores with us (AI API keys, integration credentials) are encrypted at rest
// with AES-256-GCM under the data key (config.dataKey: DATA_KEY or DATA_DIR/secrets.json). A
// sealed value reads `v1:<iv>:<tag>:<ciphertext>` (base64url), so a stolen database alone reveals
// nothing, a tampered value fails to open, and a later key scheme can be told apart by its prefix.
// Answers never carry a secret: `maskSecret` shows its last four characters only.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'v1';

export type SecretBox = {
  seal(plain: string): string;
  /** The plain text, or undefined when the value was not sealed by this key (or was altered). */
  open(sealed: string): string | undefined;
};

/**
 * Values opened lately, by their sealed text: an assistant's turn opens its prompt's key each time,
 * and a decipher's set-up costs 0.1 ms of the thread that stores inbound messages. The plain keys
 * live in this process anyway (each API client holds its own).
 */
const OPENED_MAX = 256;

/** The key may be any string: it is hashed to the 32 bytes AES-256 needs. */
export function createSecretBox(dataKey: string): SecretBox {
  const key = createHash('sha256').update(dataKey).digest();
  const opened = new Map<string, string>();
  const openSealed = (sealed: string) => {
    const [prefix, iv, tag, data] = sealed.split(':');
    if (prefix !== PREFIX || !iv || !tag || data === undefined) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  };
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [PREFIX, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
    },
    open(sealed) {
      const known = opened.get(sealed);
      if (known !== undefined) return known;
      const plain = openSealed(sealed);
      if (plain === undefined) return undefined;
      if (opened.size >= OPENED_MAX) opened.delete(opened.keys().next().value!);
      opened.set(sealed, plain);
      return plain;
    },
  };
}

/** What an answer may show of a secret: `••••` and its last four characters (nothing of a short one). */
export function maskSecret(plain: string | null | undefined): string {
  if (!plain) return '';
  return plain.length > 8 ? `••••${plain.slice(-4)}` : '••••';
}
