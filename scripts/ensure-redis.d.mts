/** Where `redis-server` is looked for, in order, after `REDIS_SERVER_PATH`. */
export declare const REDIS_SERVER_CANDIDATES: readonly string[];
/** The path of a `redis-server` binary (`REDIS_SERVER_PATH`, then the candidates), or `undefined`. */
export declare function findRedisServer(
  environment?: Record<string, string | undefined>,
): string | undefined;
