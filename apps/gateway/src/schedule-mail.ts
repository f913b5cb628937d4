// The e-mail to the member who scheduled a release or an action that failed when it ran: what,
// in which project, when, and why (nothing was changed). Plain text: no link to guess.
import type { Mail } from '@cms/mail';
import type { Release, ScheduledAction } from '@cms/releases';

interface ProjectRef {
  name: string;
  slug: string;
}

export function failedReleaseMail(to: string, project: ProjectRef, release: Release, reason: string): Mail {
  return {
    to,
    subject: `Scheduled release "${release.name}" failed`,
    text: [
      `The release "${release.name}" (id ${release.id}) of the project "${project.name}" (${project.slug}) was scheduled for ${release.scheduledAt} (${release.timezone}) and could not be published: nothing was changed.`,
      `Reason: ${reason}`,
      'Fix the entries it names and publish the release, or schedule it again.',
    ].join('\n\n') + '\n',
  };
}

export function failedActionMail(to: string, project: ProjectRef, action: ScheduledAction): Mail {
  const entry = `${action.contentType} ${action.documentId}${action.locale === null ? '' : ` (${action.locale})`}`;
  return {
    to,
    subject: `Scheduled ${action.action} of ${action.documentId} failed`,
    text: [
      `The scheduled ${action.action} of ${entry} in the project "${project.name}" (${project.slug}), due ${action.scheduledFor.datetime} (${action.scheduledFor.timezone}), failed: nothing was changed.`,
      `Reason: ${action.error ?? 'unknown'}`,
    ].join('\n\n') + '\n',
  };
}
