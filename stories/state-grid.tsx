import type { ReactNode } from 'react';

/** One labelled cell of an "all states" story. */
export interface StateCell {
  /** The state's name, shown above it. */
  name: string;
  /** The component in that state. */
  node: ReactNode;
}

/** Props of {@link StateGrid}. */
export interface StateGridProps {
  /** The states. */
  cells: StateCell[];
  /** The narrowest a cell gets, in pixels. Defaults to 240. */
  minWidth?: number;
  /** The writing direction of the grid and its components. Defaults to the page's. */
  dir?: 'ltr' | 'rtl';
  /** The language of the grid's text. Defaults to the page's. */
  lang?: string;
}

/**
 * Lays out every state of a component side by side, once in the light theme and once in the dark,
 * so one look (or one screenshot) shows all of them. Each component sits in an element with
 * `data-state-cell`, apart from the state's name, so a story can check what the component alone says.
 */
export function StateGrid({ cells, minWidth = 240, dir, lang }: StateGridProps) {
  return (
    <div
      dir={dir}
      lang={lang}
      style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '1rem' }}
    >
      {(['light', 'dark'] as const).map((theme) => (
        <section
          key={theme}
          data-theme={theme}
          aria-label={`${theme} theme`}
          style={{
            display: 'grid',
            gridTemplateColumns: `repeat(auto-fill, minmax(${minWidth}px, 1fr))`,
            alignContent: 'start',
            gap: '0.75rem',
            padding: '0.75rem',
            borderRadius: 8,
            background: 'var(--taskwire-surface-muted)',
            color: 'var(--taskwire-text)',
            fontFamily: 'system-ui, sans-serif',
          }}
        >
          {cells.map((cell) => (
            <div key={cell.name} style={{ display: 'grid', gap: '0.25rem', alignContent: 'start' }}>
              <p style={{ margin: 0, fontSize: 12, fontWeight: 600 }}>{cell.name}</p>
              <div data-state-cell="">{cell.node}</div>
            </div>
          ))}
        </section>
      ))}
    </div>
  );
}
