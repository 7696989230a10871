// Which voice settings a flow's OpenAI step can speak with, and the SSML it sends (the round trip
// through a fake voice service is in ../assistants.test.ts).
import { describe, expect, it } from 'vitest';
import { speechSettingsOf, ssmlOf } from './speech.ts';

describe('spoken answers', () => {
  it('speaks with a neural voice, a key and a region; says why not otherwise; "texto" stays text', () => {
    expect(speechSettingsOf({ voice: 'pt-BR-AntonioNeural', voiceRegion: ' BrazilSouth ' }, 'k1')).toEqual({ voice: 'pt-BR-AntonioNeural', key: 'k1', region: 'brazilsouth' });
    expect(speechSettingsOf({ voice: 'texto', voiceRegion: 'eastus' }, 'k1')).toBeUndefined();
    expect(speechSettingsOf({}, 'k1')).toBeUndefined();
    expect(speechSettingsOf({ voice: 'pt-BR-AntonioNeural', voiceRegion: 'eastus' }, undefined)).toEqual({ problem: 'no voice key' });
    expect(speechSettingsOf({ voice: 'pt-BR-AntonioNeural' }, 'k1')).toEqual({ problem: 'no voice region' });
    // The region becomes part of a host name: nothing but a region's letters and digits.
    expect(speechSettingsOf({ voice: 'pt-BR-AntonioNeural', voiceRegion: 'evil.example/x' }, 'k1')).toEqual({ problem: '"evil.example/x" is not a voice region' });
    expect(speechSettingsOf({ voice: 'Antonio"><x' }, 'k1')).toEqual({ problem: '"Antonio"><x" is not a neural voice name' });
  });

  it('writes SSML in the voice’s language with the text escaped', () => {
    expect(ssmlOf('es-MX-DaliaNeural', 'Tom & Jerry <3 "hola"')).toBe(
      '<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="es-MX"><voice name="es-MX-DaliaNeural">Tom &amp; Jerry &lt;3 &quot;hola&quot;</voice></speak>',
    );
  });
});
