import type { Decorator, Preview } from '@storybook/react-vite';
import { createElement } from 'react';
import '../src/styles.css';

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
  },
};

export default preview;
