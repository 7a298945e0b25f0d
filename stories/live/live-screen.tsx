/**
 * The look of the live stories: each story is a small product screen, one panel with the story's
 * heading and a one-line summary above the flow, and a line under it saying which service answers.
 * The layout is in live-screen.css, which reads only the theme's --taskwire-* custom properties.
 */
import { useId, type ReactNode } from 'react';
import './live-screen.css';

/** What a live story may set under `parameters.liveScreen`. */
export interface LiveScreenParameters {
  /** The one line under the story's heading that says what the flow shows. Defaults to none. */
  summary?: string;
}

/** One screen: a panel headed by `heading` and `summary`, the flow in it, `note` under it. */
export function LiveScreen({
  heading,
  summary,
  note,
  children,
}: {
  /** The panel's heading (the story's name). */
  heading: string;
  /** The line under the heading, when there is one. */
  summary: string | undefined;
  /** The small line under the panel. */
  note: string;
  /** The flow. */
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <div className="live-screen">
      <section className="live-screen__panel" aria-labelledby={headingId}>
        <header className="live-screen__header">
          <h2 id={headingId} className="live-screen__heading">
            {heading}
          </h2>
          {summary && <p className="live-screen__summary">{summary}</p>}
        </header>
        <div className="live-screen__body">{children}</div>
      </section>
      <p className="live-screen__note">{note}</p>
    </div>
  );
}

/** A row of facts about a task ("Status", "Task"), each a term over its value. */
export function Facts({ children }: { children: ReactNode }) {
  return <dl className="live-facts">{children}</dl>;
}

/** One fact of {@link Facts}. */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="live-facts__item">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A part of the panel under a heading of its own (one level below the panel's), named by it. */
export function LiveSection({ heading, children }: { heading: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="live-section" aria-labelledby={headingId}>
      <h3 id={headingId} className="live-section__heading">
        {heading}
      </h3>
      {children}
    </section>
  );
}
