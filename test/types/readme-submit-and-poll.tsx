import { TaskProgress, TaskStatusBadge, useSubmitTask, useTaskResult } from 'taskwire';

export function RenderButton() {
  const submit = useSubmitTask('render-video'); // one idempotency key per call, kept by its retries
  const result = useTaskResult('render-video', submit.data?.id); // polls until COMPLETED or FAILED

  return (
    <>
      <button onClick={() => submit.mutate({ params: { frames: 40 } })} disabled={submit.isPending}>
        Render
      </button>
      <TaskStatusBadge status={result.data?.status ?? 'idle'} />
      <TaskProgress
        label="Render video"
        status={result.data?.status ?? 'idle'}
        percent={result.data?.progress.percent ?? null}
      />
    </>
  );
}
