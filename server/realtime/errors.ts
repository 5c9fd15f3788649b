import { ApiError } from '../http/errors.ts';

/**
 * Every error the realtime service gives, in one place. Over the websocket an error is a `phx_reply`
 * with status "error" and `{reason}` (for a join: realtime-js hands `reason` to the subscribe
 * callback), or a `system` message when the server closes a channel; reasons start with Supabase
 * Realtime's error code (`ChannelRateLimitReached: Too many channels`) so they read the same as on a
 * hosted project. Over HTTP errors are ApiErrors in the platform's plain format.
 */
export const reasons = {
  unmatchedTopic: () => 'unmatched topic',
  topicRequired: () => 'TopicNameRequired: You must provide a topic name',
  topicTooLong: (max: number) => `TopicNameTooLong: A topic name may have at most ${max} characters`,
  tooManyChannels: () => 'ChannelRateLimitReached: Too many channels',
  tooManyConnections: () => 'ConnectionRateLimitReached: Too many connected users',
  tooManyMessages: () => 'MessagePerSecondRateLimitReached: Too many messages per second',
  payloadTooLarge: (limit: number) =>
    `PayloadSizeExceeded: Payload size exceeded, the limit is ${Math.floor(limit / 1024)} KB`,
  malformed: (detail: string) => `MalformedWebSocketMessage: ${detail}`,
  invalidJoinPayload: (detail: string) => `InvalidJoinPayload: ${detail}`,
  unknownEvent: (event: string) => `UnknownEvent: Unexpected message from client of type \`${event}\``,
  invalidBroadcast: (detail: string) => `InvalidBroadcastPayload: ${detail}`,
  invalidPresence: () => 'InvalidPresencePayload: Presence track payload must be a map',
  unknownPresenceEvent: (event: string) => `UnknownPresenceEvent: ${event}`,
  privateNotAllowed: (topic: string) =>
    `Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`,
  replayPublic: () => 'UnableToReplayMessages: Replay is not allowed for public channels',
  replayInvalid: () => 'UnableToReplayMessages: Replay params are not valid',
  replayFailed: () => 'UnableToReplayMessages: Realtime was unable to replay messages',
  tokenExpired: (secondsAgo: number) => `InvalidJWTToken: Token has expired ${secondsAgo} seconds ago`,
  tokenClaimsMissing: () => 'InvalidJWTToken: Fields `role` and `exp` are required in JWT',
  tokenMalformed: () => 'MalformedJWT: The token provided is not a valid JWT',
  tokenSignature: () => 'JwtSignatureError: Failed to validate JWT signature',
  tokenRole: (role: string) => `Unauthorized: The role "${role}" is not a role of this project`,
  accountGone: () => 'InvalidJWTToken: The account of this token no longer exists',
  accountSuspended: () => 'InvalidJWTToken: The account of this token is suspended',
  unavailable: () => 'RealtimeUnavailable: Realtime could not reach the database, please try again',
  shuttingDown: () => 'RealtimeRestarting: Realtime is restarting, please standby',
} as const;

/** Messages of `system` events (what a closed channel's subscribers are told). */
export const systemMessages = {
  tooManyMessages: () => 'Too many messages per second',
  tokenExpired: (secondsAgo: number) => `Token has expired ${secondsAgo} seconds ago`,
  accountGone: () => 'The account of this token no longer exists',
  accountSuspended: () => 'The account of this token is suspended',
  subscribed: () => 'Subscribed to PostgreSQL',
  subscribeFailed: (params: string, detail: string) =>
    `Unable to subscribe to changes with given parameters. An exception happened so please check your connect parameters: [${params}]. Exception: ${detail}`,
  nothingToSubscribe: (params: string) =>
    `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [${params}]`,
  noParams: () =>
    'No subscription params provided. Please provide at least a `schema` or `table` to subscribe to',
} as const;

/** HTTP errors of /realtime/v1/api/*. */
export const httpErrors = {
  unauthorized: (message: string) => new ApiError(401, 'unauthorized', message),
  badRequest: (message: string) => new ApiError(400, 'bad_request', message),
  invalidBody: (message: string) => new ApiError(422, 'unprocessable_entity', message),
  payloadTooLarge: (limit: number) =>
    new ApiError(
      413,
      'payload_too_large',
      `Payload size exceeded, the limit is ${Math.floor(limit / 1024)} KB`,
    ),
  rateLimited: (message: string) => new ApiError(429, 'too_many_requests', message),
  forbidden: (message: string) => new ApiError(403, 'forbidden', message),
  unavailable: () => new ApiError(503, 'service_unavailable', 'Realtime is not available right now'),
} as const;
