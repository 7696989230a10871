import { describe, expect, it } from 'vitest';
import { helpCreateSchema, youtubeVideoId } from './help.ts';

describe('youtubeVideoId', () => {
  it('finds the id in an id or in the usual YouTube links', () => {
    for (const input of [
      'dQw4w9WgXcQ',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
      'youtube.com/watch?v=dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ?si=x',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
    ]) {
      expect(youtubeVideoId(input), input).toBe('dQw4w9WgXcQ');
    }
  });

  it('finds nothing in other links', () => {
    expect(youtubeVideoId('https://vimeo.com/123456789')).toBeUndefined();
    expect(youtubeVideoId('https://evil.test/watch?v=dQw4w9WgXcQ')).toBeUndefined();
    expect(youtubeVideoId('short')).toBeUndefined();
  });
});

describe('helpCreateSchema', () => {
  it('stores the video id and null for empty optional fields', () => {
    expect(helpCreateSchema.parse({ title: ' Tickets ', video: 'https://youtu.be/dQw4w9WgXcQ', description: '', link: '' })).toEqual({
      title: 'Tickets',
      video: 'dQw4w9WgXcQ',
      description: null,
      link: null,
    });
  });

  it('needs a title and refuses a video that is not YouTube and a link that is not http(s)', () => {
    const r = helpCreateSchema.safeParse({ title: '', video: 'https://vimeo.com/1', link: 'javascript:alert(1)' });
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['title', 'video', 'link']);
  });
});
