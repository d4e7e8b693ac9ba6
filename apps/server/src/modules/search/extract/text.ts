/**
 * Bytes of a text file as a string: a byte-order mark decides (UTF-8, UTF-16); without
 * one UTF-8 when it decodes cleanly, else EUC-KR (CP949), the usual legacy Korean encoding.
 * The bytes may be cut anywhere (the first part of a big file): a sequence cut at the end is dropped.
 */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return decode('utf-8', bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decode('utf-16le', bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decode('utf-16be', bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return decode('euc-kr', bytes);
  }
}

function decode(encoding: string, bytes: Uint8Array): string {
  return new TextDecoder(encoding).decode(bytes, { stream: true });
}

/** Markup without its tags (HTML, XML, SVG): scripts and styles dropped, entities decoded. */
export function stripMarkup(markup: string): string {
  return decodeEntities(
    markup
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<\/(p|div|li|tr|h[1-6]|br|title)\s*>|<br\s*\/?>/gi, '\n')
      .replace(/<[^>]*>/g, ' '),
  );
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const point = code[1] === 'x' || code[1] === 'X' ? Number.parseInt(code.slice(2), 16) : Number.parseInt(code.slice(1), 10);
      return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : ' ';
    }
    return NAMED[code.toLowerCase()] ?? whole;
  });
}
