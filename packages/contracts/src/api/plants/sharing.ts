/** Sharing as manager or visitor (transfer: transfers.ts). */
import Type from 'typebox';
import { endpoint } from '../../endpoint.ts';
import { ErrorCode } from '../../errors.ts';
import { Instant, Nothing } from '../../schemas.ts';
import { Account, PlantIdParams, SharePlantParams } from './params.ts';

/** A share as its owner sees it: the account they typed, never the sharee's nickname. */
export const ShareUser = Type.Object({
  /** What `cancelShare` names. */
  userId: Type.Integer(),
  account: Type.String(),
  role: Type.Union([Type.Literal('manager'), Type.Literal('visitor')]),
  sharedAt: Instant,
});

/** The answer to a share: the share made, telling nothing of the account beyond that it exists. */
export const ShareMade = Type.Object({
  account: Type.String(),
  role: Type.Union([Type.Literal('manager'), Type.Literal('visitor')]),
  sharedAt: Instant,
});

export const getShareUsers = endpoint({
  method: 'GET',
  path: '/api/v1/plant/:plantId/getShareUsers',
  access: 'station.share',
  summary: 'Who the plant is shared with (owner only)',
  params: SharePlantParams,
  data: Type.Array(ShareUser),
});

export const cancelShare = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:plantId/cancelShare',
  access: 'station.share',
  writes: true,
  summary: 'End a share: the owner ends anyone’s, a user may end their own; effective on the next request',
  params: SharePlantParams,
  body: Type.Object({ userId: Type.Integer({ minimum: 1 }) }),
  data: Nothing,
});

export const sharePlant = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:id/share',
  access: 'station.share',
  writes: true,
  summary:
    'Share an own plant as manager or visitor (sharing again changes the role); 4 no such account, 701 self, 702 company user, 703 company plant; at most 30 share and transfer look-ups per user in 10 minutes',
  params: PlantIdParams,
  body: Type.Object({ account: Account, role: Type.Union([Type.Literal('manager'), Type.Literal('visitor')]) }),
  data: ShareMade,
  tolerate: [ErrorCode.validation, ErrorCode.shareSelf, ErrorCode.shareCompanyUser, ErrorCode.shareCompanyPlant],
});
