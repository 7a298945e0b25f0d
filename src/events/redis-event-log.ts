/**
 * `redisEventLog`: task logs in Redis Streams (docs/protocol.md, "Resumable streams (0.4)"), so that
 * app servers behind a load balancer serve a read of a stream that another one relays. Each task
 * has a stream of its messages and a hash of its owner and bounds. The appends of one task made in
 * one turn go as one script run (one round trip for a chunk of a stream) and are kept as packs of at
 * most 64 kB, one stream entry each, whose id is its last message's sequence number (`<n>-0`, so a
 * position maps onto the entry that holds it), since Redis spends about 2 µs on each entry it adds.
 * Appending and creating are Lua scripts, each one atomic step: the byte bound trims the oldest
 * packs as it appends (never the newest), the final message starts the retention (`PEXPIRE`), and
 * the store's cap drops the logs that ended first. A read catches up with `XRANGE` and follows with `XREAD BLOCK` on a
 * connection of its own (`duplicate()`), since a blocked connection serves nothing else; while the
 * log is live that is one `XREAD` per wake-up. A writer's lease (`keepAlive`) is a key that Redis
 * expires on its own clock, so servers whose clocks differ agree on it. It needs one Redis
 * (standalone, or a primary with replicas): its scripts reach several keys of one task.
 */
import { createClient } from 'redis';
import {
  EventLogError,
  eventLogLimits,
  utf8Length,
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
/** The stream entries (packs of messages, 64 kB at most each) one `XRANGE` or `XREAD` asks for. */
const BATCH = 4;
/** The most characters of messages one stream entry holds: a pack of messages appended together. */
const PACK_CHARS = 64 * 1024;
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
 * Appends packs of messages in order (KEYS: hash, stream, ended, clock; ARGV: maxLogBytes,
 * retention ms, marker ms, base, the sequence the first message must take or `0`, then for each
 * pack its messages joined, their lengths joined by commas, their count, their UTF-8 bytes and
 * whether its last one is final, `0` or `1`): `{ appended, first sequence, refusal }`. Each pack is
 * one stream entry, whose id is its last message's sequence number. Nothing is appended when the
 * log is not where the caller expects it (`GAP`: an earlier append failed), has ended (`ENDED`) or
 * is not there (`NOLOG`); nothing after a final message (`ENDED`). Then the oldest packs go while
 * the log holds more than `maxLogBytes` (never the newest), and a final message ends the log and
 * starts its retention.
 */
const APPEND_SCRIPT = `
local meta = redis.call('HMGET', KEYS[1], 'owner', 'ended', 'gone', 'last', 'first', 'bytes')
if not meta[1] or meta[3] == '1' then return {0, 0, 'NOLOG'} end
if meta[2] == '1' then return {0, 0, 'ENDED'} end
local last = tonumber(meta[4])
if ARGV[5] ~= '0' and tonumber(ARGV[5]) ~= last + 1 then return {0, 0, 'GAP'} end
local first = tonumber(meta[5])
local bytes = tonumber(meta[6])
local appended = 0
local ended = false
local index = 6
while index < #ARGV and not ended do
  local count = tonumber(ARGV[index + 2])
  last = last + count
  appended = appended + count
  ended = ARGV[index + 4] == '1'
  local fields = {'m', ARGV[index], 'l', ARGV[index + 1], 'b', ARGV[index + 3]}
  if ended then
    fields[7] = 'f'
    fields[8] = '1'
  end
  redis.call('XADD', KEYS[2], last .. '-0', unpack(fields))
  bytes = bytes + tonumber(ARGV[index + 3])
  index = index + 5
end
local maxBytes = tonumber(ARGV[1])
while bytes > maxBytes do
  local oldest = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)[1]
  if not oldest then break end
  local oldestLast = tonumber(string.match(oldest[1], '^%d+'))
  if oldestLast >= last then break end
  bytes = bytes - tonumber(oldest[2][6])
  redis.call('XDEL', KEYS[2], oldest[1])
  first = oldestLast + 1
end
redis.call('HSET', KEYS[1], 'last', last, 'first', first, 'bytes', bytes)
if ended then
  redis.call('HSET', KEYS[1], 'ended', '1')
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]))
  redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[4]), ARGV[4])
end
return {appended, last - appended + 1, ended and 'ENDED' or ''}
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

/**
 * Keeps a running log's writer alive (KEYS: hash, lease; ARGV: ms): the lease key lives that long,
 * and the hash says the log has a lease, so that a read finding the key gone abandons the log.
 * Nothing for a log that ended, is gone or does not exist.
 */
const KEEP_ALIVE_SCRIPT = `
local meta = redis.call('HMGET', KEYS[1], 'owner', 'ended', 'gone')
if not meta[1] or meta[2] == '1' or meta[3] == '1' then return 0 end
redis.call('HSET', KEYS[1], 'leased', '1')
redis.call('SET', KEYS[2], '1', 'PX', ARGV[1])
return 1
`;

/**
 * A log's state (KEYS: hash, lease): its hash's fields `owner`, `ended`, `gone`, `first`, `last`,
 * `abandoned` and `leased`, then whether its lease key is there, `1` or `0`: one command.
 */
const STATE_SCRIPT = `
local state = redis.call('HMGET', KEYS[1], 'owner', 'ended', 'gone', 'first', 'last', 'abandoned', 'leased')
state[8] = redis.call('EXISTS', KEYS[2])
return state
`;

/** Why the append script refused a message (`NOLOG`, `GAP`, else `ENDED`), in words. */
function refusalMessage(refusal: string): string {
  if (refusal === 'NOLOG') return 'No log of this task is open.';
  if (refusal === 'GAP') return 'An earlier append to this log failed.';
  return "The task's log has ended.";
}

/**
 * The append script's arguments for `messages`: packs of messages in order, each of at most
 * {@link PACK_CHARS} characters and `maxLogBytes` bytes (one message alone may be more), the last
 * one final when `final` is.
 */
function packsOf(messages: readonly string[], final: boolean, maxLogBytes: number): string[] {
  const args: string[] = [];
  let pack: string[] = [];
  let lengths: number[] = [];
  let chars = 0;
  let bytes = 0;
  const close = (last: boolean) => {
    args.push(pack.join(''), lengths.join(','), String(lengths.length), String(bytes));
    args.push(last && final ? '1' : '0');
    pack = [];
    lengths = [];
    chars = 0;
    bytes = 0;
  };
  for (const message of messages) {
    const size = utf8Length(message);
    if (lengths.length > 0 && (chars + message.length > PACK_CHARS || bytes + size > maxLogBytes)) {
      close(false);
    }
    pack.push(message);
    lengths.push(message.length);
    chars += message.length;
    bytes += size;
  }
  if (lengths.length > 0) close(true);
  return args;
}

/** An entry as `XRANGE` and `XREAD` answer it: its id and its fields. */
type StreamEntry = [id: string, fields: string[]];

/**
 * What `XREAD` answers for one stream: a map of stream to entries under RESP3 (node-redis 5 and
 * later, an object), a list of `[stream, entries]` under RESP2, `null` when it timed out.
 */
type XreadReply =
  | Record<string, StreamEntry[]>
  | Map<string, StreamEntry[]>
  | Array<[string, StreamEntry[]]>
  | null;

/** The entries of `stream` in an `XREAD` answer, whichever protocol the client speaks. */
function entriesOfReply(answer: XreadReply, stream: string): StreamEntry[] {
  if (answer === null) return [];
  if (Array.isArray(answer)) return answer.find(([name]) => name === stream)?.[1] ?? [];
  if (answer instanceof Map) return answer.get(stream) ?? [];
  return answer[stream] ?? [];
}

/** A pack of messages as a stream entry holds it: the first one's sequence, the messages, the end. */
interface Pack {
  first: number;
  messages: string[];
  /** Whether its last message is the task's final one. */
  final: boolean;
}

/** The pack of an entry: its messages cut out of `m` by the lengths in `l`, numbered up to its id. */
function unpack(id: string, fields: readonly string[]): Pack {
  let joined = '';
  let lengths = '';
  let final = false;
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const value = fields[index + 1] as string;
    if (fields[index] === 'm') joined = value;
    else if (fields[index] === 'l') lengths = value;
    else if (fields[index] === 'f') final = value === '1';
  }
  const messages: string[] = [];
  let offset = 0;
  for (const length of lengths.split(',')) {
    messages.push(joined.slice(offset, offset + Number(length)));
    offset += Number(length);
  }
  const last = Number(id.slice(0, id.indexOf('-')));
  return { first: last - messages.length + 1, messages, final };
}

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
  const leaseOf = (base: string) => `${prefix}${base}:lease`;

  /**
   * A log's state. A log whose writer's lease ran out is abandoned here, by the first reader to see
   * it (the abandon script is atomic, so two readers do it once), and its state says so; one that
   * ended meanwhile (its final message came just in time) is read again.
   */
  async function stateOf(base: string, signal?: AbortSignal): Promise<LogState> {
    const [owner, ended, gone, first, last, abandoned, leased, leaseHeld] = await command<
      (string | number | null)[]
    >(['EVAL', STATE_SCRIPT, '2', hashOf(base), leaseOf(base)], signal);
    const state = {
      owner: owner === null || owner === undefined ? null : String(owner),
      ended: ended === '1',
      gone: gone === '1',
      abandoned: abandoned === '1',
      first: Number(first ?? 1),
      last: Number(last ?? 0),
    };
    const leaseRanOut = leased === '1' && Number(leaseHeld) === 0;
    if (!leaseRanOut || state.ended || state.gone || state.owner === null) return state;
    if (await abandonLog(base)) return { ...state, ended: true, abandoned: true };
    return stateOf(base, signal);
  }

  /** The first entries of `stream` after the sequence number `cursor`, at most `BATCH`. */
  function entriesAfter(stream: string, cursor: number, signal: AbortSignal) {
    return command<StreamEntry[]>(
      ['XRANGE', stream, `(${cursor}-0`, '+', 'COUNT', String(BATCH)],
      signal,
    );
  }

  /**
   * The entries of one task after `cursor`, a batch per answer: catch-up with XRANGE (the first
   * batch already read as `caughtUp`), then XREAD BLOCK.
   */
  async function* batchesOf(
    base: string,
    after: number,
    caughtUp: StreamEntry[],
    signal: AbortSignal,
  ): AsyncGenerator<EventLogEntry[]> {
    const stream = streamOf(base);
    let cursor = after;
    let first: StreamEntry[] | undefined = caughtUp;
    let blocking: RedisEventLogClient | undefined;
    const abortBlocking = () => blocking?.destroy();
    signal.addEventListener('abort', abortBlocking, { once: true });
    // Set while the last XREAD found entries: the log is live, and the next XREAD follows it at
    // once, with no catch-up or state between (a gap still shows in the sequence numbers).
    let following = false;
    try {
      for (;;) {
        if (signal.aborted) return;
        let batch: StreamEntry[] = following
          ? []
          : (first ?? (await entriesAfter(stream, cursor, signal)));
        first = undefined;
        if (batch.length === 0 && !following) {
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
        }
        if (batch.length === 0) {
          if (blocking === undefined) {
            blocking = client.duplicate({ disableOfflineQueue: true });
            blocking.on('error', ignoreError);
            await blocking.connect();
          }
          const answer = await blocking.sendCommand<XreadReply>(
            [
              ...['XREAD', 'COUNT', String(BATCH), 'BLOCK', String(BLOCK_MS)],
              ...['STREAMS', stream, `${cursor}-0`],
            ],
            { timeout: BLOCK_MS * 5 },
          );
          batch = entriesOfReply(answer, stream);
          following = batch.length > 0;
          if (batch.length === 0) continue;
        }
        // A pack at a time: a reader writes the first one while the next is cut out.
        for (const [id, fields] of batch) {
          const pack = unpack(id, fields);
          if (pack.first > cursor + 1) {
            throw new EventLogError('expired', 'The messages after this position were dropped.');
          }
          const entries: EventLogEntry[] = [];
          for (let index = cursor + 1 - pack.first; index < pack.messages.length; index++) {
            entries.push({
              position: formatPosition(pack.first + index),
              message: pack.messages[index] as string,
              final: pack.final && index === pack.messages.length - 1,
            });
          }
          cursor = Math.max(cursor, pack.first + pack.messages.length - 1);
          if (entries.length > 0) yield entries;
          if (pack.final) return;
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

  /**
   * Ends a running log without its final message (see {@link ABANDON_SCRIPT}); `false` when there
   * was none to end (it had ended, or is gone).
   */
  async function abandonLog(base: string): Promise<boolean> {
    const abandoned = await command<number>([
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
    return Number(abandoned) === 1;
  }

  /**
   * The sequence the next append of a task will take, for the logs this instance created and
   * appends to: each script run says where it expects the log, so that no run appends after one
   * that failed before it (a gap the positions would not show).
   */
  const nextSequences = new Map<string, number>();

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
      if (Number(created) !== 1) return false;
      nextSequences.set(base, 1);
      return true;
    },

    async append(key, messages, final) {
      if (messages.length === 0) return [];
      const base = baseOf(key);
      const expected = nextSequences.get(base);
      // Expected as if appended even when this run fails: the next one is refused unless it was
      // (a reply lost with its connection), so none appends after a gap.
      if (expected !== undefined) nextSequences.set(base, expected + messages.length);
      // One script run, one round trip and all or none, however many messages: a chunk of the
      // service's stream as packs of messages.
      const [appended, first, refusal] = await command<[number, number, string]>([
        'EVAL',
        APPEND_SCRIPT,
        '4',
        hashOf(base),
        streamOf(base),
        `${prefix}ended`,
        `${prefix}clock`,
        String(maxLogBytes),
        String(Math.ceil(retentionMs)),
        String(MARKER_MS),
        base,
        String(expected ?? 0),
        ...packsOf(messages, final, maxLogBytes),
      ]);
      // An ended log takes nothing more, whoever appends: it needs no expectation.
      if (refusal === 'ENDED') nextSequences.delete(base);
      if (appended < messages.length) throw new Error(refusalMessage(refusal));
      return messages.map((_, index) => formatPosition(first + index));
    },

    async keepAlive(key, forMs) {
      const base = baseOf(key);
      await command<number>([
        'EVAL',
        KEEP_ALIVE_SCRIPT,
        '2',
        hashOf(base),
        leaseOf(base),
        String(Math.max(1, Math.ceil(forMs))),
      ]);
    },

    async abandon(key) {
      const base = baseOf(key);
      nextSequences.delete(base);
      await abandonLog(base);
    },

    async read(key, owner, after, signal): Promise<EventLogRead> {
      const base = baseOf(key);
      const cursor = after === undefined ? 0 : parsePosition(after);
      let caughtUp: StreamEntry[];
      try {
        // The state and the first entries in one round trip: a read's first event waits for one.
        const [state, entries] = await Promise.all([
          stateOf(base, signal),
          cursor === undefined ? [] : entriesAfter(streamOf(base), cursor, signal),
        ]);
        if (state.owner !== owner) return { status: 'not-found' };
        if (cursor === undefined) return { status: 'not-found' };
        if (state.gone || state.first > cursor + 1) return { status: 'expired' };
        if (state.ended && state.last <= cursor) {
          return { status: state.abandoned ? 'expired' : 'ended' };
        }
        // Past retention the stream is gone (while its hash, the marker, stays a day more): an
        // ended log with messages after the cursor and none to read.
        if (state.ended && entries.length === 0) return { status: 'expired' };
        caughtUp = entries;
      } catch (error) {
        throw new EventLogError('unavailable', 'Redis could not be read.', { cause: error });
      }
      const controller = new AbortController();
      reads.add(controller);
      const combined = AbortSignal.any([signal, controller.signal]);
      const batches = batchesOf(base, cursor, caughtUp, combined);
      return {
        status: 'ok',
        batches: {
          async *[Symbol.asyncIterator]() {
            try {
              yield* batches;
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
