/**
 * Reading a firmware upload: the multipart text fields and the one `file` part, whose bytes go
 * straight to a temporary file in the blob store (hashed and counted as they arrive: the
 * request's image is never held in memory). Whoever reads an upload owns its staged file and
 * must keep or discard it.
 */
import { ErrorCode, firmwareApi } from '@sunfleet/contracts';
import type { FastifyRequest } from 'fastify';
import { BlobTooLarge, type StagedBlob, stageBlob } from '../../firmware/blobs.ts';
import { fail } from '../../http/errors.ts';

const { firmwareRules } = firmwareApi;

export interface FirmwareUpload {
  fields: Record<string, string>;
  file: { name: string; blob: StagedBlob } | null;
}

const MAX_FIELD_BYTES = 4 * 1024;

export async function readFirmwareUpload(req: FastifyRequest, dataDir: string): Promise<FirmwareUpload> {
  const out: FirmwareUpload = { fields: {}, file: null };
  try {
    // The parser may pass one byte over the limit, so that our own count sees it and refuses.
    const parts = req.parts({
      limits: { fileSize: firmwareRules.maxBytes + 1, files: 1, fields: 20, fieldSize: MAX_FIELD_BYTES },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          continue;
        }
        const blob = await stageBlob(dataDir, part.file, firmwareRules.maxBytes);
        out.file = { name: part.filename, blob };
      } else {
        if (part.valueTruncated) fail(ErrorCode.validation, `${part.fieldname}: too long`);
        out.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    await out.file?.blob.discard();
    const code = (err as { code?: string }).code;
    if (err instanceof BlobTooLarge || code === 'FST_REQ_FILE_TOO_LARGE') {
      return fail(ErrorCode.validation, `file: larger than ${firmwareRules.maxBytes} bytes`);
    }
    if (code === 'FST_FILES_LIMIT') return fail(ErrorCode.validation, 'file: one file only');
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') return fail(ErrorCode.validation, 'too many fields');
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
      return fail(ErrorCode.validation, 'the upload must be multipart/form-data');
    throw err;
  }
  return out;
}
