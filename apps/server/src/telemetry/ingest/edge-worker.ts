/** Worker thread entry of the edge (see edge.ts): requests of raw messages in, decoded frames out. */
import { parentPort } from 'node:worker_threads';
import { decodeMessages, type EdgeRequest, type RawMessage } from './edge.ts';

parentPort!.on('message', (request: EdgeRequest) => {
  const messages: RawMessage[] = [];
  let start = 0;
  for (let i = 0; i < request.ends.length; i++) {
    const end = request.ends[i]!;
    messages.push({
      sn: request.sns[i]!,
      channel: request.channels[i]!,
      payload: Buffer.from(request.bytes, start, end - start),
      receivedAt: request.receivedAts[i]!,
    });
    start = end;
  }
  parentPort!.postMessage({ id: request.id, result: decodeMessages(messages).result });
});
