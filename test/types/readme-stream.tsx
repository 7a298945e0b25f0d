import { streamDisplayStatus, TaskProgress, UsageBreakdown, useTaskStream } from 'taskwire';

export function RenderStream() {
  // Progress, partial results and custom events as server-sent events; a broken stream is read
  // again after its last event (or, from a service without resumable streams, recovered by polling:
  // status 'recovering'), never by posting and paying again.
  const stream = useTaskStream('render-video', { onEvent: (event) => console.log(event.type) });

  return (
    <>
      <button onClick={() => stream.start({ frames: 60 })}>Render</button>
      <TaskProgress
        label="Render video"
        status={streamDisplayStatus(stream)}
        percent={stream.progress?.percent ?? null}
        estimatedSecondsLeft={stream.progress?.estimatedSecondsLeft ?? null}
        error={stream.failure ?? stream.error}
      />
      {stream.usage && <UsageBreakdown usage={stream.usage} />}
    </>
  );
}
