// vite.config.ts: the reference service on your dev server, under /taskwire (no CORS, no account).
import react from '@vitejs/plugin-react';
import { taskwireReference } from 'taskwire/vite';
import { defineConfig } from 'vite';

export default defineConfig({ plugins: [react(), taskwireReference()] });
