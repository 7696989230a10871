// Audio recording with MediaRecorder (spec/02 §2.5, §4): the mic button starts it, a timer runs,
// cancel drops it, send stops it and hands the file on unless it is under 10,000 bytes.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../../../ui/Button.tsx';
import { toast } from '../../../ui/toast/store.ts';
import { keepRecording, pickAudioFormat, timerLabel, type RecorderState } from './audio.ts';

type Props = { disabled: boolean; onRecorded: (file: File) => Promise<void>; onStateChange: (state: RecorderState) => void };

export function AudioRecorder({ disabled, onRecorded, onStateChange }: Props) {
  const { t } = useTranslation();
  const [state, setState] = useState<RecorderState>('idle');
  const [seconds, setSeconds] = useState(0);
  const recorder = useRef<MediaRecorder | null>(null);
  const cancelled = useRef(false);

  const change = (next: RecorderState) => {
    setState(next);
    onStateChange(next);
  };

  useEffect(() => {
    if (state !== 'recording') return;
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, [state]);

  // Leaving the ticket mid-recording releases the microphone.
  useEffect(() => () => recorder.current?.stream.getTracks().forEach((track) => track.stop()), []);

  const start = async () => {
    const format = typeof MediaRecorder === 'undefined' ? undefined : pickAudioFormat((m) => MediaRecorder.isTypeSupported(m));
    if (!format || !navigator.mediaDevices) {
      toast.error(t('tickets.chat.micError'));
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      toast.error(t('tickets.chat.micError'));
      return;
    }
    const chunks: Blob[] = [];
    const rec = new MediaRecorder(stream, { mimeType: format.mime, audioBitsPerSecond: 128_000 });
    rec.ondataavailable = (e) => e.data.size && chunks.push(e.data);
    rec.onstop = () => {
      stream.getTracks().forEach((track) => track.stop());
      recorder.current = null;
      const blob = new Blob(chunks, { type: format.type });
      if (cancelled.current) return change('idle');
      if (!keepRecording(blob.size)) {
        toast.info(t('tickets.chat.tooShort'));
        return change('idle');
      }
      change('sending');
      void onRecorded(new File([blob], `audio-${Date.now()}.${format.ext}`, { type: format.type })).finally(() => change('idle'));
    };
    recorder.current = rec;
    cancelled.current = false;
    setSeconds(0);
    rec.start();
    change('recording');
  };

  const stop = (cancel: boolean) => {
    cancelled.current = cancel;
    recorder.current?.stop();
  };

  if (state === 'recording') {
    return (
      <div className="flex items-center gap-1">
        <IconButton icon="x" tone="danger" label={t('tickets.chat.cancelAudio')} onClick={() => stop(true)} />
        <span className="flex items-center gap-1.5 text-sm tabular-nums" role="timer" aria-live="off">
          <span className="size-2 animate-pulse rounded-full bg-danger" aria-hidden="true" />
          {t('tickets.chat.recording', { time: timerLabel(seconds) })}
        </span>
        <IconButton icon="send" label={t('tickets.chat.sendAudio')} onClick={() => stop(false)} className="text-brand" />
      </div>
    );
  }
  if (state === 'sending') return <span className="size-5 animate-spin rounded-full border-2 border-brand border-t-transparent" role="status" aria-label={t('tickets.chat.sendAudio')} />;
  return <IconButton icon="mic" label={t('tickets.chat.record')} onClick={() => void start()} disabled={disabled} />;
}
