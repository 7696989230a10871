import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../errors.ts';
import { ERROR_TRANSLATIONS, LANGUAGES, translateError } from './errors.ts';

describe('error catalogue translations', () => {
  it.each(LANGUAGES)('%s has a non-empty message for every code and no stray keys', (lang) => {
    const codes = Object.keys(ERROR_STATUS).sort();
    expect(Object.keys(ERROR_TRANSLATIONS[lang]).sort()).toEqual(codes);
    for (const code of codes) expect((ERROR_TRANSLATIONS[lang] as Record<string, string>)[code]?.trim()).not.toBe('');
  });

  it('translates by language, defaults to English, and shows an unknown code as is', () => {
    expect(translateError('ERR_NO_PERMISSION', 'pt')).toBe('Você não tem permissão para acessar este recurso.');
    expect(translateError('ERR_NO_PERMISSION', 'es')).toBe('No tienes permiso para acceder a este recurso.');
    expect(translateError('ERR_NO_PERMISSION', 'de')).toBe('You do not have permission to access this resource.');
    expect(translateError('ERR_SOMETHING_NEW', 'pt')).toBe('ERR_SOMETHING_NEW');
  });
});
