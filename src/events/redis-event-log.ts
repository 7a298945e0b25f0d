/**
 * `redisEventLog`: task logs in Redis Streams (docs/protocol.md, "Resumable streams (0.4)"), so that
 * app servers behind a load balancer serve a read of a stream that another one relays. Each task
 * has a stream of its messages, whose entry ids are the messages' sequence numbers (`<n>-0`, so
 * that a position maps onto an id and back), and a hash of its owner and bounds. Appending and
 * creating are Lua scripts, each one atomic step: the byte bound trims the oldest entries as it
 * appends, the final message starts the retention (`PEXPIRE`), and the store's cap drops the logs
 * that ended first. A read catches up with `XRANGE` and follows with `XREAD BLOCK` on a connection
 * of its own (`duplicate()`), since a blocked connection serves nothing else. It needs one Redis
 * (standalone, or a primary with replicas): its scripts reach several keys of one task.
 */
import { createClient } from 'redis';
import {
  EventLogError,
  eventLogLimits,
  type EventLog,
  type EventLogEntry,
  type EventLogKey,
  type EventLogLimits,
  type EventLogRead,
} from './event-log.js';
import { formatPosition, parsePosition } from './log-position.js';

/**
 * What the Redis log needs of a node-redis client (a `createClient()` result is one): raw
 * commands, and a duplicate for each blocking read.
 */
export interface RedisEventLogClient {
  /** Sends one command; rejects when Redis answers an error or cannot be reached. */
  sendCommand<Reply = unknown>(
    args: readonly string[],
    options?: { abortSignal?: AbortSignal; timeout?: number },
  ): Promise<Reply>;
  /** A new client with the same options (and these overrides), not yet connected. */
  duplicate(overrides?: { disableOfflineQueue?: boolean }): RedisEventLogClient;
  /** Connects the client. */
  connect(): Promise<unknown>;
  /** Closes the connection at once; commands under way reject. */
  destroy(): void;
  /** Listens to the client's errors (a client without an `error` listener throws them). */
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/** Where the Redis log keeps its keys: a URL it connects to, or a connected client of the app's. */
export type RedisEventLogConnection =
  | {
      /** A Redis URL (`redis://host:6379`); the log connects and closes this client itself. */
      url: string;
      /** The prefix of every key the log writes. Defaults to `'taskwire:events:'`. */
      keyPrefix?: string;
    }
  | {
      /** A connected node-redis client of the app's; `close()` leaves it open. */
      client: RedisEventLogClient;
      /** The prefix of every key the log writes. Defaults to `'taskwire:events:'`. */
      keyPrefix?: string;
    };

/** How long a dropped log's hash is kept after it went, so its owner is told `expired`: a day. */
const MARKER_MS = 24 * 60 * 60 * 1000;
/** The entries one `XRANGE` or `XREAD` asks for. */
const BATCH = 256;
/** How long one `XREAD` blocks before the read looks whether its log is still there. */
const BLOCK_MS = 1000;

/**
 * Creates a log (KEYS: hash, stream, tasks, ended, clock; ARGV: owner, maxTasks, marker ms, base):
 * 1 when created, 0 when the owner's log exists, an `OWNED` error for another owner's. Past
 * `maxTasks` it drops the logs that ended first, then the oldest, leaving their hash as a marker.
 */
const CREATE_SCRIPT = `
local owner = redis.call('HGET', KEYS[1], 'owner')
if owner and redis.call('HGET', KEYS[1], 'gone') ~= '1' then
  if owner == ARGV[1] then return 0 end
  return redis.error_reply('OWNED another owner has this log')
end
local prefix = string.sub(KEYS[1], 1, string.len(KEYS[1]) - string.len(ARGV[4]) - 5)
while redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[2]) do
  local victim = redis.call('ZRANGE', KEYS[4], 0, 0)[1]
  if not victim then victim = redis.call('ZRANGE', KEYS[3], 0, 0)[1] end
  if not victim then break end
  redis.call('ZREM', KEYS[3], victim)
  redis.call('ZREM', KEYS[4], victim)
  redis.call('DEL', prefix .. victim .. ':log')
  if redis.call('EXISTS', prefix .. victim .. ':meta') == 1 then
    redis.call('HSET', prefix .. victim .. ':meta', 'gone', '1')
    redis.call('PEXPIRE', prefix .. victim .. ':meta', ARGV[3])
  end
end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'last', 0, 'first', 1, 'bytes', 0, 'ended', 0, 'gone', 0)
redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[5]), ARGV[4])
return 1
`;

/**
 * Appends a message (KEYS: hash, stream, ended, clock; ARGV: message, final, maxLogBytes,
 * retention ms, marker ms, base): its sequence number. The oldest entries go while the log holds
 * more than `maxLogBytes` (never the newest); the final one ends the log and starts its retention.
 */
const APPEND_SCRIPT = `
local meta = redis.call('HMGET', KEYS[1], 'owner', 'ended', 'gone', 'last', 'first', 'bytes')
if not meta[1] or meta[3] == '1' then return redis.error_reply('NOLOG no log of this task is open') end
if meta[2] == '1' then return redis.error_reply('ENDED the log has ended') end
local sequence = tonumber(meta[4]) + 1
redis.call('XADD', KEYS[2], sequence .. '-0', 'm', ARGV[1], 'f', ARGV[2])
local bytes = tonumber(meta[6]) + string.len(ARGV[1])
local first = tonumber(meta[5])
while bytes > tonumber(ARGV[3]) and first < sequence do
  local oldest = redis.call('XRANGE', KEYS[2], first .. '-0', first .. '-0')[1]
  if oldest then
    bytes = bytes - string.len(oldest[2][2])
    redis.call('XDEL', KEYS[2], first .. '-0')
  end
  first = first + 1
end
redis.call('HSET', KEYS[1], 'last', sequence, 'first', first, 'bytes', bytes)
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[1], 'ended', '1')
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]) + tonumber(ARGV[5]))
  redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[4]), ARGV[6])
end
return sequence
`;

/**
 * Abandons a log (KEYS: hash, stream, ended, clock; ARGV: retention ms, marker ms, base): it ends
 * without a final message, and its retention starts. Nothing for a log that ended or is gone.
 */
const ABANDON_SCRIPT = `
local meta = redis.call('HMGET', KEYS[1], 'owner', 'ended', 'gone')
if not meta[1] or meta[2] == '1' or meta[3] == '1' then return 0 end
redis.call('HSET', KEYS[1], 'ended', '1', 'abandoned', '1')
redis.call('PEXPIRE', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]))
redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[4]), ARGV[3])
return 1
`;

/** An entry as `XRANGE` and `XREAD` answer it: its id and its fields. */
type StreamEntry = [id: string, fields: string[]];

/** The state of a log, as its hash holds it. */
interface LogState {
  owner: string | null;
  ended: boolean;
  gone: boolean;
  abandoned: boolean;
  first: number;
  last: number;
}

/**
 * Creates an {@link EventLog} in Redis Streams (docs/protocol.md, "Resumable streams (0.4)"), within
 * `limits`; several servers given the same Redis share the logs. Connects lazily on first use.
 * Throws a `RangeError` for a limit that is not positive.
 */
export function redisEventLog(
  connection: RedisEventLogConnection,
  limits?: EventLogLimits,
): EventLog {
  const { retentionMs, maxLogBytes, maxTasks } = eventLogLimits(limits);
  const prefix = connection.keyPrefix ?? 'taskwire:events:';
  const owned = 'url' in connection;
  const client: RedisEventLogClient = owned
    ? // Commands fail at once while Redis is away, rather than waiting in a queue: a read then
      // ends with a defined outcome (docs/protocol.md, "Resumable streams (0.4)").
      (createClient({ url: connection.url, disableOfflineQueue: true }) as RedisEventLogClient)
    : connection.client;
  if (owned) client.on('error', ignoreError);
  let connecting: Promise<unknown> | undefined;
  let closed = false;
  const reads = new Set<AbortController>();

  function ready(): Promise<unknown> {
    if (closed) return Promise.reject(new Error('The event log is closed.'));
    connecting ??= owned ? client.connect() : Promise.resolve();
    return connecting;
  }

  async function command<Reply>(args: string[], signal?: AbortSignal): Promise<Reply> {
    await ready();
    return client.sendCommand<Reply>(args, signal === undefined ? {} : { abortSignal: signal });
  }

  /** The base of a task's keys: name and id encoded, so neither can run into the other. */
  const baseOf = ({ taskName, taskId }: EventLogKey) =>
    `${encodeURIComponent(taskName)}:${encodeURIComponent(taskId)}`;
  const hashOf = (base: string) => `${prefix}${base}:meta`;
  const streamOf = (base: string) => `${prefix}${base}:log`;

  async function stateOf(base: string, signal?: AbortSignal): Promise<LogState> {
    const [owner, ended, gone, first, last, abandoned] = await command<(string | null)[]>(
      ['HMGET', hashOf(base), 'owner', 'ended', 'gone', 'first', 'last', 'abandoned'],
      signal,
    );
    return {
      owner: owner ?? null,
      ended: ended === '1',
      gone: gone === '1',
      abandoned: abandoned === '1',
      first: Number(first ?? 1),
      last: Number(last ?? 0),
    };
  }

  /** The entries of one task after `cursor`: catch-up with XRANGE, then XREAD BLOCK. */
  async function* entriesOf(
    base: string,
    after: number,
    signal: AbortSignal,
  ): AsyncGenerator<EventLogEntry> {
    const stream = streamOf(base);
    let cursor = after;
    let blocking: RedisEventLogClient | undefined;
    const abortBlocking = () => blocking?.destroy();
    signal.addEventListener('abort', abortBlocking, { once: true });
    try {
      for (;;) {
        if (signal.aborted) return;
        let batch = await command<StreamEntry[]>(
          ['XRANGE', stream, `(${cursor}-0`, '+', 'COUNT', String(BATCH)],
          signal,
        );
        if (batch.length === 0) {
          const state = await stateOf(base, signal);
          if (state.gone || state.owner === null) {
            throw new EventLogError('expired', 'The log went while it was read.');
          }
          if (state.first > cursor + 1) {
            throw new EventLogError('expired', 'The messages after this position were dropped.');
          }
          if (state.last > cursor) {
            // Appended since the XRANGE, unless the stream expired (past retention) meanwhile.
            if ((await command<number>(['EXISTS', stream], signal)) === 1) continue;
            throw new EventLogError('expired', 'The log went while it was read.');
          }
          if (state.abandoned) {
            throw new EventLogError('expired', 'The stream broke before its final message.');
          }
          // Ended with nothing after the cursor: the reader already had the final message.
          if (state.ended) return;
          if (blocking === undefined) {
            blocking = client.duplicate({ disableOfflineQueue: true });
            blocking.on('error', ignoreError);
            await blocking.connect();
          }
          const answer = await blocking.sendCommand<[string, StreamEntry[]][] | null>(
            [
              ...['XREAD', 'COUNT', String(BATCH), 'BLOCK', String(BLOCK_MS)],
              ...['STREAMS', stream, `${cursor}-0`],
            ],
            { timeout: BLOCK_MS * 5 },
          );
          batch = answer?.[0]?.[1] ?? [];
          if (batch.length === 0) continue;
        }
        for (const [id, fields] of batch) {
          const sequence = Number(id.slice(0, id.indexOf('-')));
          if (sequence !== cursor + 1) {
            throw new EventLogError('expired', 'The messages after this position were dropped.');
          }
          cursor = sequence;
          const final = fields[3] === '1';
          yield { position: formatPosition(sequence), message: fields[1] ?? '', final };
          if (final) return;
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof EventLogError) throw error;
      throw new EventLogError('unavailable', 'Redis could not be read.', { cause: error });
    } finally {
      signal.removeEventListener('abort', abortBlocking);
      blocking?.destroy();
    }
  }

  return {
    async create(key, owner) {
      const base = baseOf(key);
      const created = await command<number>([
        'EVAL',
        CREATE_SCRIPT,
        '5',
        hashOf(base),
        streamOf(base),
        `${prefix}tasks`,
        `${prefix}ended`,
        `${prefix}clock`,
        owner,
        String(maxTasks),
        String(MARKER_MS),
        base,
      ]);
      return Number(created) === 1;
    },

    async append(key, message, final) {
      const base = baseOf(key);
      const sequence = await command<number>([
        'EVAL',
        APPEND_SCRIPT,
        '4',
        hashOf(base),
        streamOf(base),
        `${prefix}ended`,
        `${prefix}clock`,
        message,
        final ? '1' : '0',
        String(maxLogBytes),
        String(Math.ceil(retentionMs)),
        String(MARKER_MS),
        base,
      ]);
      return formatPosition(Number(sequence));
    },

    async abandon(key) {
      const base = baseOf(key);
      await command<number>([
        'EVAL',
        ABANDON_SCRIPT,
        '4',
        hashOf(base),
        streamOf(base),
        `${prefix}ended`,
        `${prefix}clock`,
        String(Math.ceil(retentionMs)),
        String(MARKER_MS),
        base,
      ]);
    },

    async read(key, owner, after, signal): Promise<EventLogRead> {
      const base = baseOf(key);
      const cursor = after === undefined ? 0 : parsePosition(after);
      try {
        const state = await stateOf(base, signal);
        if (state.owner !== owner) return { status: 'not-found' };
        if (cursor === undefined) return { status: 'not-found' };
        if (state.gone || state.first > cursor + 1) return { status: 'expired' };
        if (state.ended && state.last <= cursor) {
          return { status: state.abandoned ? 'expired' : 'ended' };
        }
        // Past retention the stream is gone while its hash, the marker, stays a day more.
        if (state.ended && (await command<number>(['EXISTS', streamOf(base)], signal)) === 0) {
          return { status: 'expired' };
        }
      } catch (error) {
        throw new EventLogError('unavailable', 'Redis could not be read.', { cause: error });
      }
      const controller = new AbortController();
      reads.add(controller);
      const combined = AbortSignal.any([signal, controller.signal]);
      const entries = entriesOf(base, cursor, combined);
      return {
        status: 'ok',
        entries: {
          async *[Symbol.asyncIterator]() {
            try {
              yield* entries;
            } finally {
              reads.delete(controller);
            }
          },
        },
      };
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const read of reads) read.abort();
      reads.clear();
      if (owned && connecting !== undefined) {
        await connecting.catch(ignoreError);
        client.destroy();
      }
    },
  };
}

function ignoreError(): void {
  // The command that failed rejects with the error; the client's own event adds nothing.
}
