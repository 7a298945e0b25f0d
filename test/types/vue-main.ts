// main.ts of a Vite + Vue app: VueQueryPlugin first, then TaskwirePlugin with the client and a
// journal (the journal keeps tasks per user: the client's scope is the signed-in user's id).
import { VueQueryPlugin } from '@tanstack/vue-query';
import { createApp } from 'vue';
import { createTaskClient, createTaskJournal, TaskwirePlugin } from 'taskwire/vue';
import { demoTaskSchemas } from 'taskwire/reference';
import App from './App.vue';

const client = createTaskClient({
  baseUrl: `${window.location.origin}/taskwire`,
  userToken: 'demo-user-token',
  clientToken: 'demo-client-token',
  scope: 'user-1',
  tasks: demoTaskSchemas,
});

createApp(App)
  .use(VueQueryPlugin)
  .use(TaskwirePlugin, { client, journal: createTaskJournal() })
  .mount('#app');
