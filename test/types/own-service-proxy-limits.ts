// server/task-proxy.ts: a proxy whose limits are set against its defaults.
import {
  createTaskProxy,
  DEFAULT_PROXY_MAX_BODY_BYTES,
  DEFAULT_PROXY_REQUEST_TIMEOUT_MS,
  DEFAULT_PROXY_STREAM_IDLE_TIMEOUT_MS,
} from 'taskwire/server';

export const proxy = createTaskProxy({
  target: process.env.TASKWIRE_URL ?? 'https://tasks.example.com/v1',
  clientToken: () => process.env.TASKWIRE_CLIENT_TOKEN ?? '',
  tasks: ['translate-text'],
  basePath: '/api/taskwire',
  // Whole documents in the params: four times the default body.
  maxBodyBytes: 4 * DEFAULT_PROXY_MAX_BODY_BYTES,
  // Four times the body takes longer to arrive from a phone: twice the default deadline.
  requestTimeoutMs: 2 * DEFAULT_PROXY_REQUEST_TIMEOUT_MS,
  // A stream silent for two keep-alive periods (30 s), not three, is broken: the page polls sooner.
  streamIdleTimeoutMs: DEFAULT_PROXY_STREAM_IDLE_TIMEOUT_MS - 15_000,
});
