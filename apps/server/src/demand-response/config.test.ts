/** The VTN connection from the environment: all three of URL, client id and secret, or none. */
import { describe, expect, it } from 'vitest';
import { ConfigError, oadrSetting } from '../config.ts';

describe('OADR_* configuration', () => {
  it('none set: not connected', () => {
    expect(oadrSetting({})).toBeNull();
  });

  it('reads the VTN, credentials, VEN name, callback and poll interval', () => {
    expect(
      oadrSetting({
        OADR_VTN_URL: 'https://vtn.example.org/openadr3/',
        OADR_CLIENT_ID: 'ven',
        OADR_CLIENT_SECRET: 's3cret',
        OADR_CALLBACK_URL: 'https://portal.example.org/api/v1/oadr/callback',
        OADR_POLL_SECONDS: '30',
      }),
    ).toEqual({
      vtnUrl: 'https://vtn.example.org/openadr3',
      clientId: 'ven',
      clientSecret: 's3cret',
      venName: 'sunfleet-ven',
      callbackUrl: 'https://portal.example.org/api/v1/oadr/callback',
      pollSeconds: 30,
    });
  });

  it('refuses a partial or bad setting', () => {
    expect(() => oadrSetting({ OADR_VTN_URL: 'https://vtn.example.org' })).toThrow(ConfigError);
    expect(() => oadrSetting({ OADR_VTN_URL: 'ftp://vtn', OADR_CLIENT_ID: 'a', OADR_CLIENT_SECRET: 'b' })).toThrow(
      /OADR_VTN_URL/,
    );
    expect(() =>
      oadrSetting({ OADR_VTN_URL: 'https://v', OADR_CLIENT_ID: 'a', OADR_CLIENT_SECRET: 'b', OADR_POLL_SECONDS: '1' }),
    ).toThrow(/OADR_POLL_SECONDS/);
  });
});
