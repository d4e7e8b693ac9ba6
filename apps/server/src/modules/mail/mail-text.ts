import type { AccountLanguage } from '@bogwan/contracts';
import type { Mail } from './mailer.js';

/**
 * The e-mails the server writes, in each account language. Mail is rendered here, not by
 * the web catalogues: it leaves the server with no browser in between.
 */
const SIGN_IN_CODE: Record<AccountLanguage, (code: string) => Omit<Mail, 'to'>> = {
  ko: (code) => ({
    subject: `[보관] 로그인 인증 코드 ${code}`,
    text: `보관 로그인 인증 코드: ${code}\n10분 동안 한 번만 쓸 수 있습니다. 로그인하려던 적이 없다면 이 메일을 무시하세요.\n`,
  }),
  en: (code) => ({
    subject: `[Bogwan] Your sign-in code ${code}`,
    text: `Your Bogwan sign-in code: ${code}\nIt works once, for 10 minutes. If you did not try to sign in, ignore this mail.\n`,
  }),
};

/** The second-step sign-in code, in the recipient's language. */
export function signInCodeMail(to: string, code: string, language: AccountLanguage): Mail {
  return { to, ...SIGN_IN_CODE[language](code) };
}
