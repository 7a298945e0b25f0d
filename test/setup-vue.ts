// The Vue project's setup: every component a test mounted is unmounted after it, so no composable
// keeps polling or streaming into the next test.
import { enableAutoUnmount } from '@vue/test-utils';
import { afterEach } from 'vitest';

enableAutoUnmount(afterEach);
