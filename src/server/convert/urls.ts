/** What every converter puts in its URLs: the pictures, and where web pages live. */

/** feedgate hosts no pictures; GitHub's identicon service draws one for any login. */
export const avatarOf = (login: string) => `https://github.com/identicons/${encodeURIComponent(login)}.png`;

/**
 * Where GitHub's web pages would be (`html_url`, clone URLs): the API's origin without its path, as GitHub
 * Enterprise serves its API under `https://host/api/v3` and its pages at `https://host/`.
 */
export const webOrigin = (baseUrl: string) => new URL(baseUrl).origin;
