/** The "Number of images" field of the generate-images stories, and the count it holds. */
import { useId, useState, type ReactNode } from 'react';

/**
 * A number field labelled "Number of images" and the count read from it, from 1 to 8. The field
 * keeps its own text, so it can be empty while the user types.
 */
export function useImageCountField(): { count: number; field: ReactNode } {
  const id = useId();
  const [text, setText] = useState('1');
  const count = Math.min(8, Math.max(1, Number.parseInt(text, 10) || 1));
  const field = (
    <div className="live-field">
      <label htmlFor={id}>Number of images</label>
      <input
        id={id}
        type="number"
        min={1}
        max={8}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </div>
  );
  return { count, field };
}
