// An incremental XML tokenizer for the parts of an .xlsx: text in, tag and text events out, with
// no tree built and nothing kept but the unfinished tail of the last chunk. Spreadsheet XML uses a
// small part of XML (elements, attributes, character data, the five entities and character
// references, an occasional CDATA section or comment), and a general SAX parser spent half of an
// import's time checking what this reader does not need. Tag names arrive without their namespace
// prefix (`x:row` is `row`): some writers prefix the main namespace.

export type XmlHandler = {
  open(name: string, attrs: string, selfClosing: boolean): void;
  close(name: string): void;
  /** Character data as written (entities not yet decoded; see decodeXml), or a CDATA section's content. */
  text(raw: string, cdata: boolean): void;
};

export class XmlError extends Error {}

/** Longest tag or run of text waited for across chunks (spreadsheet cells hold at most 32,767 characters). */
const MAX_PENDING_CHARS = 1024 * 1024;

const GT = 62; // >
const SLASH = 47;
const QUOT = 34;
const APOS = 39;
const EQUALS = 61;

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

const localName = (qname: string) => {
  const colon = qname.indexOf(':');
  return colon < 0 ? qname : qname.slice(colon + 1);
};

/** End of the tag opened at `lt` (the index of its `>`), quotes respected; -1 when the chunk ends first. */
function findTagEnd(s: string, lt: number): number {
  let quote = 0;
  for (let j = lt + 1; j < s.length; j++) {
    const ch = s.charCodeAt(j);
    if (quote !== 0) {
      if (ch === quote) quote = 0;
    } else if (ch === QUOT || ch === APOS) quote = ch;
    else if (ch === GT) return j;
  }
  return -1;
}

/** Feeds the handler as chunks arrive; `end()` checks that nothing was left half-written. */
export function createXmlScanner(handler: XmlHandler) {
  let rest = '';
  return {
    write(chunk: string) {
      const s = rest.length === 0 ? chunk : rest + chunk;
      let i = 0;
      for (;;) {
        const lt = s.indexOf('<', i);
        if (lt < 0) break; // the text may go on in the next chunk
        if (lt > i) handler.text(s.slice(i, lt), false);
        i = lt;
        const next = s.charCodeAt(lt + 1);
        if (next === 33 /* ! */) {
          // Comment, CDATA or DOCTYPE.
          const cdata = s.startsWith('<![CDATA[', lt);
          const close = cdata ? ']]>' : s.startsWith('<!--', lt) ? '-->' : '>';
          const end = s.indexOf(close, lt + 2);
          if (end < 0) break;
          if (cdata) handler.text(s.slice(lt + 9, end), true);
          i = end + close.length;
          continue;
        }
        if (next === 63 /* ? */) {
          const end = s.indexOf('?>', lt + 2);
          if (end < 0) break;
          i = end + 2;
          continue;
        }
        const gt = findTagEnd(s, lt);
        if (gt < 0) break;
        if (next === SLASH) {
          handler.close(localName(s.slice(lt + 2, gt).trim()));
        } else {
          const selfClosing = s.charCodeAt(gt - 1) === SLASH;
          const end = selfClosing ? gt - 1 : gt;
          let nameEnd = lt + 1;
          while (nameEnd < end && !isSpace(s.charCodeAt(nameEnd))) nameEnd++;
          handler.open(localName(s.slice(lt + 1, nameEnd)), nameEnd < end ? s.slice(nameEnd, end) : '', selfClosing);
        }
        i = gt + 1;
      }
      rest = s.slice(i);
      if (rest.length > MAX_PENDING_CHARS) throw new XmlError('a tag or text in the XML is longer than 1 M characters');
    },
    end() {
      if (rest.trim() !== '') throw new XmlError('the XML ends in the middle of a tag');
    },
  };
}

/**
 * The decoded value of attribute `name` in the attribute text of an open tag (as the scanner gives
 * it: starting with the white space after the tag name).
 */
export function readAttr(attrs: string, name: string): string | undefined {
  for (let from = 0; ; ) {
    const at = attrs.indexOf(name, from);
    if (at < 0) return undefined;
    from = at + 1;
    if (at === 0 || !isSpace(attrs.charCodeAt(at - 1))) continue; // the end of a longer name
    let j = at + name.length;
    while (isSpace(attrs.charCodeAt(j))) j++;
    if (attrs.charCodeAt(j) !== EQUALS) continue;
    j++;
    while (isSpace(attrs.charCodeAt(j))) j++;
    const quote = attrs.charCodeAt(j);
    if (quote !== QUOT && quote !== APOS) return undefined;
    const end = attrs.indexOf(quote === QUOT ? '"' : "'", j + 1);
    return end < 0 ? undefined : decodeXml(attrs.slice(j + 1, end));
  }
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Character data with its entities and character references replaced. */
export function decodeXml(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(#[xX][0-9a-fA-F]+|#\d+|[A-Za-z]+);/g, (whole, ref: string) => {
    if (ref.charCodeAt(0) !== 35 /* # */) return NAMED[ref] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
