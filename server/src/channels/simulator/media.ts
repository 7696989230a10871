// Small but valid media files for simulated contacts: a real decoder opens each of them, so the
// pipeline's storage, thumbnails and players are exercised with genuine bytes.

export type SimulatedMedia = { data: Buffer; mimeType: string; fileName: string };

// A 1x1 transparent PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

// Ogg pages carry a CRC-32 with polynomial 0x04c11db7, unreflected (RFC 3533), unlike zlib's.
const OGG_CRC_TABLE = Array.from({ length: 256 }, (_, i) => {
  let r = i << 24;
  for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
  return r >>> 0;
});

function oggCrc(data: Buffer): number {
  let crc = 0;
  for (const byte of data) crc = ((crc << 8) ^ OGG_CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  return crc;
}

function oggPage(packet: Buffer, seq: number, flags: number, granule: number): Buffer {
  const header = Buffer.alloc(27);
  header.write('OggS', 0, 'ascii');
  header[5] = flags;
  header.writeBigUInt64LE(BigInt(granule), 6);
  header.writeUInt32LE(0x5a5d, 14); // stream serial
  header.writeUInt32LE(seq, 18);
  header[26] = 1; // one segment: every packet here is shorter than 255 bytes
  const page = Buffer.concat([header, Buffer.from([packet.length]), packet]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

/** An Ogg Opus voice note: OpusHead, OpusTags and one 20 ms silence frame (what WhatsApp sends as ptt). */
function oggOpus(): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'ascii');
  head[8] = 1; // version
  head[9] = 1; // mono
  head.writeUInt16LE(312, 10); // pre-skip
  head.writeUInt32LE(48000, 12);
  const vendor = Buffer.from('zapdesk');
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'ascii');
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);
  const silence = Buffer.from([0xf8, 0xff, 0xfe]);
  return Buffer.concat([oggPage(head, 0, 0x02, 0), oggPage(tags, 1, 0, 0), oggPage(silence, 2, 0x04, 960)]);
}

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + body.length);
  return Buffer.concat([size, Buffer.from(type, 'ascii'), body]);
}

/** An ISO BMFF (MP4) file with ftyp and a movie header: valid structure, zero duration. */
function mp4(): Buffer {
  const ftyp = box('ftyp', Buffer.from('isom', 'ascii'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41', 'ascii'));
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12); // timescale
  mvhd.writeUInt32BE(0x00010000, 20); // rate 1.0
  mvhd.writeUInt16BE(0x0100, 24); // volume 1.0
  for (const [i, v] of [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].entries()) mvhd.writeUInt32BE(v, 36 + i * 4);
  mvhd.writeUInt32BE(2, 96); // next track id
  return Buffer.concat([ftyp, box('moov', box('mvhd', mvhd))]);
}

function pdf(title: string): Buffer {
  const text = title.replace(/[()\\]/g, '');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${`BT /F1 12 Tf 20 50 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 12 Tf 20 50 Td (${text}) Tj ET\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export function generateMedia(kind: 'image' | 'audio' | 'video' | 'document', fileName?: string): SimulatedMedia {
  switch (kind) {
    case 'image':
      return { data: PNG, mimeType: 'image/png', fileName: fileName ?? 'image.png' };
    case 'audio':
      return { data: oggOpus(), mimeType: 'audio/ogg; codecs=opus', fileName: fileName ?? 'audio.ogg' };
    case 'video':
      return { data: mp4(), mimeType: 'video/mp4', fileName: fileName ?? 'video.mp4' };
    case 'document':
      return { data: pdf(fileName ?? 'document.pdf'), mimeType: 'application/pdf', fileName: fileName ?? 'document.pdf' };
  }
}
