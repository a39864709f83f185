/** Process health and stored uploads. */
import Type from 'typebox';
import { endpoint } from '../endpoint.ts';

export const health = endpoint({
  method: 'GET',
  path: '/healthz',
  access: 'public',
  summary: 'Liveness and store reachability',
  data: Type.Object({ status: Type.Literal('ok'), store: Type.String(), uptimeSec: Type.Number() }),
});

export const upload = endpoint({
  method: 'GET',
  path: '/uploads/:folder/:file',
  access: 'public',
  summary: 'An uploaded image (avatar, logo, plant picture) by its random name',
  params: Type.Object({
    folder: Type.Union([Type.Literal('avatars'), Type.Literal('logos'), Type.Literal('plants')]),
    file: Type.String({ pattern: '^[a-f0-9]{32}\\.(png|jpg|gif)$' }),
  }),
  data: Type.Null(),
  file: true,
});
