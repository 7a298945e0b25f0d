import type { Decorator, Preview } from '@storybook/react-vite';
import { createElement } from 'react';
import '../src/styles.css';

/** The system's UI font, for every story (the theme's components inherit the font they sit in). */
const SYSTEM_FONT_STACK =
  "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

/** Wraps every story in the theme picked in the toolbar; "system" follows prefers-color-scheme. */
const withTheme: Decorator = (Story, context) => {
  const theme = context.globals['theme'] as string | undefined;
  return createElement(
    'div',
    {
      'data-theme': theme === 'light' || theme === 'dark' ? theme : undefined,
      style: {
        padding: '1rem',
        background: 'var(--taskwire-surface-muted)',
        color: 'var(--taskwire-text)',
        fontFamily: SYSTEM_FONT_STACK,
      },
    },
    createElement(Story),
  );
};

const preview: Preview = {
  decorators: [withTheme],
  globalTypes: {
    theme: {
      description: 'Colour theme of the components',
      toolbar: {
        title: 'Theme',
        icon: 'contrast',
        items: [
          { value: 'system', title: 'System' },
          { value: 'light', title: 'Light' },
          { value: 'dark', title: 'Dark' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: 'system' },
  parameters: {
    // An axe violation fails the story, in the browser and when stories run as tests.
    a11y: { test: 'error' },
    controls: { expanded: true },
    // The docs pages first (stories/docs/, and the API reference of api-reference/), then the
    // components and the live stories; a table of contents beside every docs page.
    options: {
      storySort: { order: ['Introduction', 'Guides', 'Reference', ['API'], 'Components', 'Live'] },
    },
    docs: { toc: true },
  },
};

export default preview;
