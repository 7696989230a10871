// Search that ignores case and accents alike on both dialects: `search_fold(text)` lower-cases and
// maps accented Latin letters to their plain letter ("José" → "jose"). On PostgreSQL it is a SQL
// function (translate(lower(…)), migration 20261127T030000_search_fold; no extension needed); on
// SQLite, whose lower() is ASCII-only, this file's `foldText` is registered on the connection under
// the same name (database.ts). The letter table is the migration's, copied (migrations are frozen).

const FROM =
  'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖØÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöøùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦħĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŁłŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽž';
const TO =
  'aaaaaaceeeeiiiinoooooouuuuyaaaaaaceeeeiiiinoooooouuuuyyaaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiijjkkllllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzz';

const PLAIN = new Map([...FROM].map((ch, i) => [ch, TO[i]!]));

/** The SQL function's name on both dialects. */
export const FOLD_FUNCTION = 'search_fold';

/** What `search_fold` does, in JavaScript: lower-case, then accented letters to plain ones. */
export function foldText(text: string): string {
  let out = '';
  for (const ch of text.toLowerCase()) out += PLAIN.get(ch) ?? ch;
  return out;
}
