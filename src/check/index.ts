/**
 * `taskwire/check`: checks a team's own task service (or the proxy in front of it) against the
 * contract the client and the hooks rely on (docs/protocol.md), from code or with the
 * `taskwire-check` command; docs/checking-your-service.md explains every check.
 *
 * @packageDocumentation
 */
export { checkService } from './check-service.js';
export { CHECKS, type CheckId, type CheckLevel } from './check-catalogue.js';
export type {
  CheckOutcome,
  CheckProgress,
  CheckReport,
  CheckResult,
  CheckServiceOptions,
  SilentTask,
} from './check-types.js';
export { formatCheckReport, toJUnitXml } from './format-report.js';
