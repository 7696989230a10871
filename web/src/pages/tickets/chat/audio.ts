// Audio recording (spec/02 §4, §9): idle → recording → sending; a recording under 10,000 bytes is
// discarded, not sent. The container is the first one the browser records that the server accepts.

export const MIN_AUDIO_BYTES = 10_000;

export type RecorderState = 'idle' | 'recording' | 'sending';

/** Whether a finished recording is sent (true) or discarded as too short (false). */
export function keepRecording(size: number): boolean {
  return size >= MIN_AUDIO_BYTES;
}

const PREFERRED = [
  { mime: 'audio/ogg;codecs=opus', type: 'audio/ogg', ext: 'ogg' },
  { mime: 'audio/webm;codecs=opus', type: 'audio/webm', ext: 'webm' },
  { mime: 'audio/mpeg', type: 'audio/mpeg', ext: 'mp3' },
] as const;

/** The recording format: the first the browser supports, or undefined when it records none of them. */
export function pickAudioFormat(supports: (mime: string) => boolean) {
  return PREFERRED.find((f) => supports(f.mime));
}

/** mm:ss of the recording timer. */
export function timerLabel(seconds: number): string {
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}
