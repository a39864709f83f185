/**
 * Account check and code sending for sign-up and password reset:
 * `GET /anonymous/checkAccount` — 103 "already registered" (sign-up) and 105 "is an account"
 * (reset) are tolerated and drive the form — then `GET /anonymous/getCode`.
 */
import { account, ErrorCode, type QueryOf } from '@sunfleet/contracts';
import { App, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { useServerLanguage } from '../../api/hooks.ts';

type Purpose = QueryOf<typeof account.getCode>['type'];

/** Whether `email` may be used for `purpose`; shows the reason on the form's `account` field. */
export async function checkAccountFor(
  purpose: Purpose,
  email: string,
  form: FormInstance,
  notFoundText: string,
): Promise<boolean> {
  const refuse = (message: string) => {
    form.setFields([{ name: 'account', errors: [message] }]);
    return false;
  };
  try {
    const { exists } = await call(account.checkAccount, { query: { account: email, type: purpose } });
    // Code 0: the address is free — right for sign-up, wrong for a reset.
    return purpose === 'signup' || exists ? true : refuse(notFoundText);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (purpose === 'reset' && err.code === ErrorCode.isAccount) return true;
    return err.tolerated ? refuse(err.message) : false;
  }
}

export function useVerificationCode(form: FormInstance, purpose: Purpose) {
  const { message } = App.useApp();
  const { t } = useTranslation('auth');
  const lan = useServerLanguage();

  const check = (email: string) => checkAccountFor(purpose, email, form, t('accountNotFound'));

  /** For the e-mail field's blur: check quietly once the address looks valid. */
  const checkOnBlur = async () => {
    try {
      const { account: email } = await form.validateFields(['account']);
      await check(email);
    } catch {
      // The field shows its own validation error.
    }
  };

  const sendCode = async (): Promise<boolean> => {
    let email: string;
    try {
      email = (await form.validateFields(['account'])).account;
    } catch {
      return false;
    }
    if (!(await check(email))) return false;
    try {
      await call(account.getCode, { query: { account: email, type: purpose, lan } });
    } catch {
      return false;
    }
    message.success(t('codeSent', { email }));
    return true;
  };

  return { sendCode, checkOnBlur };
}
