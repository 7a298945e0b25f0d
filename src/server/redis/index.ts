/**
 * `taskwire/server/redis`: the event log of resumable streams in Redis Streams
 * (`redisEventLog`), so that app servers behind a load balancer serve a read of a stream that
 * another one relays. Needs the `redis` package (node-redis), an optional peer dependency.
 *
 * @packageDocumentation
 */
export { redisEventLog } from '../../events/redis-event-log.js';
export type { RedisEventLogClient, RedisEventLogConnection } from '../../events/redis-event-log.js';
