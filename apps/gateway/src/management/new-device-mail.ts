// "New sign-in to your account": mailed when an account signs in from a device it had not used
// before, with what to do if it was not the account's owner.
import { linkMail, type Mail } from '@cms/mail';

export interface SignInFacts {
  device: string;
  ip: string;
  at: Date;
  /** The dashboard's account page, where sessions are ended. */
  accountPage: string;
}

export function newDeviceMail(to: string, facts: SignInFacts): Mail {
  return linkMail({
    to,
    subject: 'New sign-in to your account',
    intro: [
      `Your account ${to} was just signed in to from a device it had not used before.`,
      `Device: ${facts.device}`,
      `IP address: ${facts.ip}`,
      `Time: ${facts.at.toUTCString()}`,
      'If it was you, there is nothing to do.',
    ],
    action: 'Review your sessions',
    link: facts.accountPage,
    outro: ['If it was not you, open your account page, end that session with "End session", and change your password at once: changing it also ends every other session.'],
  });
}
