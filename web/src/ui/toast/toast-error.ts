// The shared error handler of spec/01 §8: a catalogue code in the response is translated into the
// user's language and toasted for 2 s, after the name of the file it is about when the answer names
// one (an upload refused); an unknown code is shown as is; anything else is only logged.
import { translateError } from '@zapdesk/sync';
import { AppError } from '../../api/client.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { toast } from './store.ts';

export function toastError(err: unknown): void {
  if (err instanceof AppError) {
    // An unknown code arrives as ERR_INTERNAL_SERVER_ERROR carrying the original: shown as is.
    const unknown = err.details?.error;
    const file = err.details?.fileName;
    const text = typeof unknown === 'string' ? unknown : translateError(err.code, currentLanguage());
    toast.error(typeof file === 'string' && file ? `${file}: ${text}` : text);
    return;
  }
  if (typeof err === 'string') {
    console.error(err);
    return;
  }
  if (err instanceof TypeError) {
    // fetch rejects with a TypeError when the API cannot be reached at all.
    toast.error(translateError('ERR_INTERNAL_SERVER_ERROR', currentLanguage()));
  }
  console.error('An error occurred!', err);
}
