// The consumer tests' build of their app: a consumer's build should be quiet, so a warning (a
// directive Rollup drops, a missing export, an unresolved import left external) is a packaging
// problem and fails the test. Vite is imported late, so a missing build or browser is reported
// before it loads.
import { join } from 'node:path';

/** Builds the app at `appRoot` with its vite.config.ts; throws with the warnings when it warned. */
export async function quietViteBuild(appRoot) {
  const { build, createLogger } = await import('vite');
  const warnings = [];
  const logger = createLogger('warn');
  const customLogger = {
    ...logger,
    warn: (message, options) => {
      warnings.push(message);
      logger.warn(message, options);
    },
    warnOnce: (message, options) => {
      warnings.push(message);
      logger.warnOnce(message, options);
    },
  };
  await build({ root: appRoot, configFile: join(appRoot, 'vite.config.ts'), customLogger });
  if (warnings.length > 0) throw new Error(`vite build of the app warned:\n${warnings.join('\n')}`);
}
