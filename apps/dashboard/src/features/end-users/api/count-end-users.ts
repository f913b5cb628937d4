// How many end users match filters (`GET /api/users/count` of the project's content API: every
// member's key may count, a viewer's too), and which identifiers of a refused new user are taken.
import { contentApi, strapiQuery } from '../../../content-api.ts';

export const countEndUsers = (slug: string, filters: object | undefined) => contentApi<number>(slug, 'GET', `/api/users/count${strapiQuery({ filters })}`);

/** Which of a refused new user's identifiers are taken (the API says "Email or Username are already taken"). */
export async function takenIdentifiers(slug: string, user: { username: string; email: string }): Promise<{ username: boolean; email: boolean }> {
  const [username, email] = await Promise.all([
    countEndUsers(slug, { username: { $eq: user.username } }),
    countEndUsers(slug, { email: { $eqi: user.email } }),
  ]);
  return { username: username > 0, email: email > 0 };
}
