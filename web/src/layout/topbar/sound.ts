// The notification sound: a short two-tone chime made with Web Audio at the stored volume, so no
// audio file ships. Browsers allow sound only after the user interacted with the page; before that
// the chime is silently skipped.
let audio: AudioContext | null = null;

export function playChime(volume: number): void {
  if (volume <= 0 || typeof AudioContext === 'undefined') return;
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume();
    const now = audio.currentTime;
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      const start = now + i * 0.12;
      gain.gain.setValueAtTime(0, start);
      gain.gain.linearRampToValueAtTime(0.25 * volume, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.3);
      osc.connect(gain).connect(audio.destination);
      osc.start(start);
      osc.stop(start + 0.32);
    }
  } catch {
    // No audio device: notifications still show.
  }
}
