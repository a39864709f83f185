/**
 * Refuse oversized MQTT frames as soon as their length is known. Aedes buffers a whole packet
 * before any hook sees it, so without this any client (even before CONNECT) could make the
 * server hold up to 256 MB per connection. MQTT 3.1.1 cannot announce a maximum packet size.
 *
 * This reaches into the Aedes client's mqtt-packet parser (`_parser._parseLength`), which is
 * private API: aedes 1.2.0 / mqtt-packet 9.0.2 are pinned, and the broker test sends an
 * oversized frame, so an upgrade that moves it fails loudly rather than silently.
 */
import type { Client } from 'aedes';

interface ParserInternals {
  packet: { length: number };
  _parseLength?: () => boolean;
}

/** Returns false when the parser is not where we expect it (the guard is then not installed). */
export function guardFrameSize(client: Client, maxBytes: number, onTooLarge: (length: number) => void): boolean {
  const parser = (client as unknown as { _parser?: ParserInternals })._parser;
  const parseLength = parser?._parseLength;
  if (!parser || typeof parseLength !== 'function') return false;
  parser._parseLength = function guardedParseLength(this: ParserInternals) {
    const ok = parseLength.call(this);
    if (ok && this.packet.length > maxBytes) {
      onTooLarge(this.packet.length);
      client.conn.destroy(new Error(`MQTT frame of ${this.packet.length} bytes is over the limit of ${maxBytes}`));
      return false;
    }
    return ok;
  };
  return true;
}
