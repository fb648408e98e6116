/**
 * GitHub's custom media types (https://docs.github.com/rest/using-the-rest-api/getting-started-with-the-rest-api#media-types):
 * `application/vnd.github[.v3].PARAM[+json]`, where the parameter asks a resource for another form of its answer (a
 * file's bytes, a commit's diff). Each resource serves its own few; GitHub answers any other of the body-format
 * parameters with 406 "This resource does not support the 'full' media type parameter." (recorded by
 * piotrmurach/github#108). Previews (`squirrel-girl-preview`) and the star form name no body format and are left to
 * the routes that read them. No Node-only imports.
 */

/** The parameters that name a form of a body: those GitHub's media-types page documents for some resource. */
export const MEDIA_PARAMS = ["raw", "html", "text", "full", "object", "diff", "patch", "sha", "base64"] as const;
export type MediaParam = (typeof MEDIA_PARAMS)[number];

const GITHUB_TYPE = /^application\/vnd\.github(?:\.v3)?\.([a-z0-9-]+)(?:\+json)?$/;

/**
 * The body-format parameter an `Accept` header names, the first of its media ranges that names one (`q` is not
 * weighed: GitHub's clients send one range), or null for none (`application/json`, `*\/*`, the v3 type, a preview).
 */
export function mediaParam(accept: string | undefined): MediaParam | null {
  for (const range of (accept ?? "").split(",")) {
    const type = range.split(";")[0]!.trim().toLowerCase();
    const param = GITHUB_TYPE.exec(type)?.[1];
    if (param && (MEDIA_PARAMS as readonly string[]).includes(param)) return param as MediaParam;
  }
  return null;
}

/** GitHub's message for a parameter the resource does not serve. */
export const unsupportedMediaParam = (param: MediaParam) =>
  `This resource does not support the '${param}' media type parameter.`;

/** The `Content-Type` of an answer in a parameter's form: GitHub's own type for it, with its charset. */
export const mediaContentType = (param: MediaParam) => `application/vnd.github.${param}; charset=utf-8`;
