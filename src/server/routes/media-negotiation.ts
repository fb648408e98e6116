/**
 * Which form of its answer a request asks a resource for, by GitHub's media type parameter in `Accept`
 * (api/media-types.ts): one the route serves, null for its JSON, or GitHub's 406 for a body format it does not serve.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { type MediaParam, mediaContentType, mediaParam, unsupportedMediaParam } from "../../api/media-types.js";
import { ApiError } from "../errors.js";

export const notAcceptable = (param: MediaParam) => new ApiError(406, unsupportedMediaParam(param));

export function negotiate<const P extends MediaParam>(request: FastifyRequest, served: readonly P[]): P | null {
  const param = mediaParam(request.headers.accept);
  if (param === null) return null;
  if ((served as readonly MediaParam[]).includes(param)) return param as P;
  throw notAcceptable(param);
}

/**
 * An answer in a parameter's form, under GitHub's type for it: a string or a Buffer, which Fastify sends as it is,
 * not through the route's JSON serializer.
 */
export const sendAs = (reply: FastifyReply, param: MediaParam, body: string | Buffer) =>
  reply.type(mediaContentType(param)).send(body);
