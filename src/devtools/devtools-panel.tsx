'use client';
/**
 * The devtools panel, loaded on demand by the mount (`devtools-mount.tsx`): a toggle button, and
 * when open the filters, the list of tasks and the selected task's details and timeline. Keyboard:
 * the arrow keys, Home and End move through the list; Escape closes the panel and gives the focus
 * back to the toggle. Its look comes from `devtools-panel.css`, themable through
 * `--taskwire-devtools-*` custom properties.
 */
import './devtools-panel.css';
import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent,
} from 'react';
import type { DevtoolsPanelProps } from './devtools-mount.js';
import {
  formatCredits,
  taskTimelines,
  type DevtoolsTask,
  type DevtoolsTaskStatus,
} from './task-timelines.js';

/** Every status, in the order the status filter offers them. */
const STATUSES: readonly DevtoolsTaskStatus[] = [
  'waiting',
  'accepted',
  'running',
  'completed',
  'failed',
  'quoted',
  'error',
  'aborted',
];

/** The filters of the list; an empty string lets everything through. */
interface Filters {
  name: string;
  status: string;
  text: string;
}

function matches(task: DevtoolsTask, { name, status, text }: Filters): boolean {
  if (name !== '' && task.name !== name) return false;
  if (status !== '' && task.status !== status) return false;
  if (text === '') return true;
  const needle = text.toLowerCase();
  return [task.name, task.id ?? '', task.mode, ...task.timeline.map((entry) => entry.text)].some(
    (value) => value.toLowerCase().includes(needle),
  );
}

/** The keys that move through the list, and where each one goes from `index` among `count`. */
function nextIndex(key: string, index: number, count: number): number | undefined {
  switch (key) {
    case 'ArrowDown':
      return Math.min(index + 1, count - 1);
    case 'ArrowUp':
      return Math.max(index - 1, 0);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}

/** One task's details: what it is, where it stands, and its timeline. */
function TaskDetails({ task }: { task: DevtoolsTask }) {
  return (
    <section className="taskwire-devtools__details" aria-label={`Task ${task.name}`}>
      <dl className="taskwire-devtools__facts">
        <dt>Task</dt>
        <dd>{task.name}</dd>
        <dt>Id</dt>
        <dd>{task.id ?? '—'}</dd>
        <dt>Mode</dt>
        <dd>{task.mode}</dd>
        <dt>Status</dt>
        <dd data-status={task.status}>{task.status}</dd>
        <dt>Progress</dt>
        <dd>{task.percent === undefined ? '—' : `${Math.round(task.percent)} %`}</dd>
        <dt>Quoted</dt>
        <dd>{formatCredits(task.quotedCredits)}</dd>
        <dt>Charged</dt>
        <dd>{formatCredits(task.chargedCredits)}</dd>
        <dt>Requests</dt>
        <dd>
          {task.counts.requests} · retries {task.counts.retries} · errors {task.counts.errors}
        </dd>
      </dl>
      <ol className="taskwire-devtools__timeline" aria-label="Timeline">
        {task.timeline.map((entry, index) => (
          <li key={index} data-type={entry.type} data-failed={entry.failed || undefined}>
            <span className="taskwire-devtools__time">+{entry.at - task.startedAt} ms</span>{' '}
            {entry.text}
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * What the toggle counts: the tasks the client started or followed, and apart from them its price
 * quotes (Options calls start no task), "2 tasks, 1 price quote".
 */
function countsOf(tasks: readonly DevtoolsTask[]): string {
  const quotes = tasks.filter((task) => task.mode === 'options').length;
  const started = tasks.length - quotes;
  const counted = `${started} ${started === 1 ? 'task' : 'tasks'}`;
  return quotes === 0
    ? counted
    : `${counted}, ${quotes} ${quotes === 1 ? 'price quote' : 'price quotes'}`;
}

/** The panel: the toggle and, when open, filters, tasks and the selected task's timeline. */
export default function DevtoolsPanel({
  recorder,
  initialIsOpen = false,
  placement = 'corner',
}: DevtoolsPanelProps) {
  const recorded = useSyncExternalStore(
    recorder.subscribe,
    recorder.getSnapshot,
    recorder.getSnapshot,
  );
  const tasks = useMemo(() => taskTimelines(recorded), [recorded]);
  const [open, setOpen] = useState(initialIsOpen);
  const [filters, setFilters] = useState<Filters>({ name: '', status: '', text: '' });
  const [selectedKey, setSelectedKey] = useState<string>();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const id = useId();

  const names = [...new Set(tasks.map((task) => task.name))].sort();
  const visible = tasks.filter((task) => matches(task, filters));
  const selectedIndex = Math.max(
    visible.findIndex((task) => task.key === selectedKey),
    0,
  );
  const selected = visible[selectedIndex];

  const close = (): void => {
    setOpen(false);
    toggle.current?.focus();
  };
  // Escape closes the panel from wherever the focus is inside the devtools.
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: globalThis.KeyboardEvent): void => {
      if (event.key !== 'Escape' || !root.current?.contains(document.activeElement)) return;
      event.preventDefault();
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);
  const onTaskKeyDown = (event: KeyboardEvent): void => {
    const next = nextIndex(event.key, selectedIndex, visible.length);
    if (next === undefined) return;
    event.preventDefault();
    setSelectedKey(visible[next]?.key);
    list.current?.querySelectorAll('button')[next]?.focus();
  };
  const setFilter = (name: keyof Filters, value: string): void =>
    setFilters((current) => ({ ...current, [name]: value }));

  return (
    <div
      ref={root}
      className="taskwire-devtools"
      data-state={open ? 'open' : 'closed'}
      data-placement={placement}
    >
      <button
        ref={toggle}
        type="button"
        className="taskwire-devtools__toggle"
        aria-expanded={open}
        aria-controls={open ? `${id}-panel` : undefined}
        onClick={() => (open ? close() : setOpen(true))}
      >
        Taskwire devtools ({countsOf(tasks)})
      </button>
      {open && (
        <section
          id={`${id}-panel`}
          className="taskwire-devtools__panel"
          aria-label="Taskwire devtools"
        >
          <div className="taskwire-devtools__filters" role="search" aria-label="Filter tasks">
            <label>
              Task name
              <select
                value={filters.name}
                onChange={(event) => setFilter('name', event.target.value)}
              >
                <option value="">All</option>
                {names.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Status
              <select
                value={filters.status}
                onChange={(event) => setFilter('status', event.target.value)}
              >
                <option value="">All</option>
                {STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {status}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Text
              <input
                type="search"
                value={filters.text}
                onChange={(event) => setFilter('text', event.target.value)}
              />
            </label>
            <button type="button" className="taskwire-devtools__clear" onClick={recorder.clear}>
              Clear
            </button>
          </div>
          <div className="taskwire-devtools__body">
            {visible.length === 0 ? (
              <p className="taskwire-devtools__empty">
                {tasks.length === 0 ? 'No task yet.' : 'No task matches the filters.'}
              </p>
            ) : (
              <ul ref={list} className="taskwire-devtools__tasks" aria-label="Tasks">
                {visible.map((task, index) => (
                  <li key={task.key}>
                    <button
                      type="button"
                      className="taskwire-devtools__task"
                      aria-current={index === selectedIndex ? 'true' : undefined}
                      tabIndex={index === selectedIndex ? 0 : -1}
                      data-status={task.status}
                      onClick={() => setSelectedKey(task.key)}
                      onKeyDown={onTaskKeyDown}
                    >
                      <span className="taskwire-devtools__task-name">{task.name}</span>{' '}
                      <span className="taskwire-devtools__task-meta">
                        {task.mode} · {task.status}
                        {task.id === undefined ? '' : ` · ${task.id}`}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {selected && <TaskDetails task={selected} />}
          </div>
        </section>
      )}
    </div>
  );
}
