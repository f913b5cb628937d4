// The e-mails the platform sends to accounts: verification, password reset, project invitation.
// Links point at the dashboard on the origin the request came through.
import { linkMail, type Mail } from '@cms/mail';

export function linkTo(origin: string, page: string, token: string): string {
  return `${origin}/${page}?token=${encodeURIComponent(token)}`;
}

export function verificationMail(to: string, link: string): Mail {
  return linkMail({
    to,
    subject: 'Verify your e-mail',
    intro: ['Please confirm that this is your e-mail address by opening the link below (valid for 24 hours).'],
    action: 'Verify my e-mail',
    link,
    outro: ['If you did not create an account, you can ignore this message.'],
  });
}

export function resetPasswordMail(to: string, link: string): Mail {
  return linkMail({
    to,
    subject: 'Reset your password',
    intro: ['Someone asked to reset the password of your account. Choose a new one with the link below (valid for 1 hour, once).'],
    action: 'Choose a new password',
    link,
    outro: ['If it was not you, ignore this message: your password stays as it is.'],
  });
}

export function invitationMail(to: string, invite: { projectName: string; inviter: string; role: string; days: number; link: string }): Mail {
  return linkMail({
    to,
    subject: `You are invited to ${invite.projectName}`,
    intro: [`${invite.inviter} invites you to join the project "${invite.projectName}" as ${invite.role}.`,
      `Accept the invitation with the link below (valid for ${invite.days} days, once); you sign in or create an account first.`],
    action: 'Accept the invitation',
    link: invite.link,
  });
}
