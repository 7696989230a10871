// Spoken answers (spec/03 §3, §9: a flow's OpenAI step with a voice other than "texto"): the text is
// read by Azure's neural text-to-speech (REST, SSML, the node's voiceKey and voiceRegion) into an
// Ogg Opus voice note, what WhatsApp plays as a recorded message. AZURE_SPEECH_BASE_URL replaces
// the region's endpoint (tests talk to a local fake). Adapters never touch the database.

export type SpeechSettings = { voice: string; key: string; region: string };

/** A neural voice name as Azure lists them (`pt-BR-FranciscaNeural`); its first two parts are the language. */
const VOICE_NAME = /^([a-z]{2,3}-[A-Z]{2})-[A-Za-z]+Neural$/;
/** Azure regions are lower-case words (eastus, brazilsouth): nothing else goes into the host name. */
const REGION = /^[a-z0-9]{2,40}$/;

/**
 * The step's voice settings, or why its answers stay text: `undefined` for "texto" (or no voice),
 * `{ problem }` when a voice is chosen but cannot be used.
 */
export function speechSettingsOf(data: Record<string, unknown>, key: string | undefined): SpeechSettings | { problem: string } | undefined {
  const voice = typeof data.voice === 'string' ? data.voice.trim() : '';
  if (!voice || voice === 'texto') return undefined;
  if (!VOICE_NAME.test(voice)) return { problem: `"${voice}" is not a neural voice name` };
  const region = typeof data.voiceRegion === 'string' ? data.voiceRegion.trim().toLowerCase() : '';
  if (!key) return { problem: 'no voice key' };
  if (!REGION.test(region)) return { problem: region ? `"${region}" is not a voice region` : 'no voice region' };
  return { voice, key, region };
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** The SSML Azure reads: one voice, the text escaped. */
export function ssmlOf(voice: string, text: string): string {
  const lang = VOICE_NAME.exec(voice)?.[1] ?? 'pt-BR';
  return `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="${lang}"><voice name="${voice}">${escapeXml(text)}</voice></speak>`;
}

/** The text as an Ogg Opus voice note; throws with the service's status when it refuses. */
export async function synthesizeSpeech(settings: SpeechSettings, text: string, opts: { baseUrl?: string; signal: AbortSignal }): Promise<Buffer> {
  const base = (opts.baseUrl ?? `https://${settings.region}.tts.speech.microsoft.com`).replace(/\/+$/, '');
  const res = await fetch(`${base}/cognitiveservices/v1`, {
    method: 'POST',
    headers: {
      'Ocp-Apim-Subscription-Key': settings.key,
      'Content-Type': 'application/ssml+xml',
      'X-Microsoft-OutputFormat': 'ogg-24khz-16bit-mono-opus',
      'User-Agent': 'zapdesk',
    },
    body: ssmlOf(settings.voice, text),
    signal: opts.signal,
  });
  const audio = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw new Error(`the voice service answered ${res.status}${audio.length ? `: ${audio.toString('utf8').slice(0, 200)}` : ''}`);
  // An Ogg stream starts with its capture pattern; anything else is not a voice note.
  if (audio.subarray(0, 4).toString('latin1') !== 'OggS') throw new Error('the voice service did not answer with Ogg audio');
  return audio;
}
