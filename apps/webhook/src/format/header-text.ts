import { isUtf8 } from 'node:buffer';

/**
 * A header value as a person should read it. Node hands header bytes over as Latin-1, one
 * character per byte, so the UTF-8 bytes of `Zoë` arrive as `ZoÃ«`. When those bytes are valid
 * UTF-8 they are shown decoded; otherwise (a real Latin-1 value such as `café` sent as one byte
 * per character) as they came. The record keeps the value as received: forwarding, replay and
 * export send the same bytes.
 */
export function headerText(value: string): string {
  let high = false;
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code > 0xff) return value; // not a Latin-1 byte string: already decoded
    if (code >= 0x80) high = true;
  }
  if (!high) return value;
  const bytes = Buffer.from(value, 'latin1');
  return isUtf8(bytes) ? bytes.toString('utf8') : value;
}
