import { useEffect } from 'react';
import { streamDisplayStatus, TaskProgress, useTaskStream } from 'taskwire';

export function FollowRender({ taskId }: { taskId: string }) {
  // A render started elsewhere (another tab, another device, the app's server), followed by its id.
  const stream = useTaskStream('render-video');
  const { attach } = stream;

  // Posts nothing: the whole sequence from its first message where the service offers resumable
  // streams, else the record with Get Result.
  useEffect(() => {
    attach(taskId);
  }, [attach, taskId]);

  return (
    <>
      <TaskProgress
        label="Render video"
        status={streamDisplayStatus(stream)}
        percent={stream.progress?.percent ?? null}
        estimatedSecondsLeft={stream.progress?.estimatedSecondsLeft ?? null}
        error={stream.failure ?? stream.error}
      />
      {/* Not a cancel: the render runs on at the service, and is paid for. */}
      <button onClick={stream.stop}>Stop watching</button>
    </>
  );
}
