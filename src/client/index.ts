/**
 * `feedgate/client`: the typed SDK for feedgate's interface (and any GitHub REST v3 server speaking it).
 * Built on fetch with web-standard APIs only, so it runs in browsers as well as in Node.
 */
export { Client, VERSION, type ClientOptions, type EventFamily, type PageOptions, type PageSource } from "./client.js";
export { StreamGapError, StreamUnavailableError, type StreamGap, type StreamOptions } from "./stream.js";
export type { AuthOptions, BasicAuth, OAuthAuth, OtpCallback } from "./auth.js";
export {
  FeedgateError,
  HttpError,
  NetworkError,
  ParameterError,
  TimeoutError,
  type RedactedRequest,
} from "./errors.js";
export { PERMITTED_HEADERS, type RequestHeaders, type UnconditionalHeaders } from "./headers.js";
export type { Data, Operation, Operations, Params, ParamsArgument } from "./operations.js";
export { META_HEADERS, type Meta, type MetaHeader, type NotModified, type Result, type Success } from "./types.js";
export { endpoints, type Endpoint, type Endpoints } from "../api/endpoints.js";
export type { Authorization, Event, IssueEvent } from "../api/schemas.js";
