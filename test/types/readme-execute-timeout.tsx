import { TaskProgress, useExecuteTask, useTaskResult } from 'taskwire';

export function SlowReport() {
  const execute = useExecuteTask('slow-report');
  // Past the 20 s limit the error carries the task's id: the task goes on, so follow it.
  const lateTaskId = execute.error?.code === 'timeout' ? execute.error.taskId : undefined;
  const late = useTaskResult('slow-report', lateTaskId);

  return (
    <>
      <button onClick={() => execute.mutate({ params: { seconds: 30 } })}>Build the report</button>
      <TaskProgress
        label="Report"
        status={
          late.data?.status ?? execute.data?.status ?? (execute.isPending ? 'running' : 'idle')
        }
        percent={late.data?.progress.percent ?? null}
      />
    </>
  );
}
