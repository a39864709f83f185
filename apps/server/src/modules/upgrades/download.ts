/**
 * The firmware download behind a signed link: the image streamed from its blob file (never read
 * whole into memory), with byte ranges so that an interrupted download resumes: `Range:
 * bytes=a-b`, `bytes=a-` or `bytes=-n` answers 206 with `Content-Range`; a range past the end 416;
 * no range the whole image (200). An expired or forged link is 403, a link to an image that is
 * gone 404; neither says more.
 */
import fs from 'node:fs';
import { ErrorCode } from '@sunfleet/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/index.ts';
import { firmwareBlobPath } from '../../firmware/signing.ts';
import { replyError } from '../../http/errors.ts';
import { firmwareBlob } from './fleet.repo.ts';
import type { LinkSigner } from './links.ts';

/** The byte range asked for, within `size`: null for none (or one we do not serve: several ranges), 'bad' when unsatisfiable. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'bad' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return null;
  const [, a, b] = m as unknown as [string, string, string];
  if (a === '' && b === '') return 'bad';
  if (a === '') {
    const n = Number(b);
    if (n === 0) return 'bad';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (start >= size || end < start) return 'bad';
  return { start, end };
}

/** The code of each refusal: a link that does not verify (403), a gone image (404). */
const refusals = { 403: ErrorCode.noPermission, 404: ErrorCode.notFound } as const;

export async function serveFirmware(
  db: Db,
  dataDir: string,
  links: LinkSigner,
  req: FastifyRequest,
  reply: FastifyReply,
  p: { id: number; exp: number; sig: string },
): Promise<FastifyReply> {
  // Refusals in the envelope: 403 (code 2) for a link that does not verify, 404 for a gone image.
  const refuse = (status: keyof typeof refusals) =>
    replyError(req, reply.header('cache-control', 'no-store'), status, refusals[status]);
  if (!links.verify(p.id, p.exp, p.sig)) return refuse(403);
  const fw = await firmwareBlob(db, p.id);
  const file = fw ? firmwareBlobPath(dataDir, fw.sha256) : null;
  const stat = file ? await fs.promises.stat(file).catch(() => null) : null;
  if (!file || !stat?.isFile()) return refuse(404);
  const size = stat.size;
  reply
    .header('accept-ranges', 'bytes')
    .header('content-type', 'application/octet-stream')
    .header('cache-control', 'private, no-store')
    .header('etag', `"${fw!.sha256}"`)
    .header('x-content-type-options', 'nosniff');
  // A range applies only to the same image (If-Range with its ETag, or none).
  const ifRange = req.headers['if-range'];
  const range = ifRange && ifRange !== `"${fw!.sha256}"` ? null : parseRange(req.headers.range, size);
  if (range === 'bad') return replyError(req, reply.header('content-range', `bytes */${size}`), 416, ErrorCode.validation);
  if (range === null) return reply.code(200).header('content-length', size).send(fs.createReadStream(file));
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
    .header('content-length', range.end - range.start + 1)
    .send(fs.createReadStream(file, { start: range.start, end: range.end }));
}
