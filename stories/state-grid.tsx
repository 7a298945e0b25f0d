import type { ReactNode } from 'react';

/** One labelled cell of an "all states" story. */
export interface StateCell {
  /** The state's name, shown above it. */
  name: string;
  /** The component in that state. */
  node: ReactNode;
}

/**
 * Lays out every state of a component side by side, once in the light theme and once in the dark,
 * so one look (or one screenshot) shows all of them.
 */
export function StateGrid({ cells, minWidth = 240 }: { cells: StateCell[]; minWidth?: number }) {
  return (
    <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '1rem' }}>
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
              {cell.node}
            </div>
          ))}
        </section>
      ))}
    </div>
  );
}
