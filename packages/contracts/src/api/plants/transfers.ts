/**
 * Plant transfer to another account, as a request: the owner asks with their password, the
 * recipient accepts or declines, either side may cancel while it is pending, and it lapses after
 * `limits.plantTransferDays` days. The plant changes owner only on acceptance.
 */
import Type from 'typebox';
import { endpoint } from '../../endpoint.ts';
import { ErrorCode } from '../../errors.ts';
import { Id, IdParams, Instant } from '../../schemas.ts';
import { Account, PlantIdParams } from './params.ts';

export const PlantTransferStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('accepted'),
  Type.Literal('declined'),
  Type.Literal('cancelled'),
  Type.Literal('expired'),
]);

/** A transfer request as either party sees it. */
export const PlantTransfer = Type.Object({
  id: Id,
  plantId: Id,
  plantName: Type.String(),
  /** The account that asked (the owner, or the company account of a company plant). */
  fromAccount: Type.String(),
  /** The account the plant is offered to. */
  toAccount: Type.String(),
  status: PlantTransferStatus,
  createdAt: Instant,
  /** After this the request lapses unanswered. */
  expiresAt: Instant,
});

export const transferPlant = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:id/transfer',
  access: 'station.transfer',
  writes: true,
  summary:
    'Offer the plant to another account (owner rights, confirmed with the caller’s password): the recipient is mailed and must accept; until then nothing changes. 108 wrong password, 4 no such account, 207 oneself, 704 a request for this plant is already pending; at most 30 share and transfer look-ups per user in 10 minutes',
  params: PlantIdParams,
  query: Type.Object({ account: Account }),
  body: Type.Object({ password: Type.String({ minLength: 1, maxLength: 64 }) }),
  data: PlantTransfer,
  tolerate: [ErrorCode.validation, ErrorCode.oldPasswordWrong, ErrorCode.already, ErrorCode.transferPending],
});

export const listPlantTransfers = endpoint({
  method: 'GET',
  path: '/api/v1/plantTransfers',
  access: 'user',
  summary: 'Pending transfer requests: those offered to the caller and those the caller made, oldest first',
  data: Type.Object({ offered: Type.Array(PlantTransfer), sent: Type.Array(PlantTransfer) }),
});

export const acceptPlantTransfer = endpoint({
  method: 'POST',
  path: '/api/v1/plantTransfer/:id/accept',
  access: 'user',
  writes: true,
  summary:
    'The recipient accepts: the plant becomes their own plant with its devices and history, every share ends, the requester is mailed. 404 not a request offered to the caller, 705 no longer pending (answered, cancelled, lapsed, or the plant changed hands or was deleted)',
  params: IdParams,
  data: PlantTransfer,
  tolerate: [ErrorCode.notFound, ErrorCode.transferClosed],
});

export const declinePlantTransfer = endpoint({
  method: 'POST',
  path: '/api/v1/plantTransfer/:id/decline',
  access: 'user',
  writes: true,
  summary:
    'The recipient declines; the plant stays; the requester is mailed. 404 not offered to the caller, 705 no longer pending',
  params: IdParams,
  data: PlantTransfer,
  tolerate: [ErrorCode.notFound, ErrorCode.transferClosed],
});

export const cancelPlantTransfer = endpoint({
  method: 'POST',
  path: '/api/v1/plantTransfer/:id/cancel',
  access: 'user',
  writes: true,
  summary:
    'Either side withdraws a pending request (the requester, anyone with owner rights on the plant, or the recipient); the other side is mailed. 404 not the caller’s request, 705 no longer pending',
  params: IdParams,
  data: PlantTransfer,
  tolerate: [ErrorCode.notFound, ErrorCode.transferClosed],
});
