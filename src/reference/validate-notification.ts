/**
 * The notification a Submit may ask for (§2.5, CONTRACT 1.9), checked before the task is created:
 * its shape, and every link in it, so that no `javascript:` or `data:` URL ever reaches a sink that
 * might render it (CONTRACT 1.2 `INVALID_NOTIFICATION`).
 */
import * as z from 'zod/mini';
import { isSafeAppLink, isSafeWebLink } from '../core/links.js';
import { describeIssues } from '../core/schemas.js';
import { ServiceError } from './service-error.js';

/** The longest link accepted in a notification action. */
const MAX_LINK_LENGTH = 2048;

const notificationSchema = z.object({
  enabled: z.optional(z.boolean()),
  data: z.optional(
    z.object({
      title: z.optional(z.string().check(z.maxLength(200))),
      description: z.optional(z.string().check(z.maxLength(2000))),
    }),
  ),
  actions: z.optional(
    z
      .array(
        z.object({
          deeplink: z.optional(z.string().check(z.maxLength(MAX_LINK_LENGTH))),
          mobileDeeplink: z.optional(z.string().check(z.maxLength(MAX_LINK_LENGTH))),
        }),
      )
      .check(z.maxLength(10)),
  ),
});

/** A notification request that passed every check. */
export type NotificationRequest = z.infer<typeof notificationSchema>;

/** A call to action of a notification. */
export interface NotificationAction {
  /** An `https:` link. */
  deeplink?: string;
  /** An `https:` or app-scheme link for mobile apps. */
  mobileDeeplink?: string;
}

function invalid(message: string): ServiceError {
  return new ServiceError(422, 'INVALID_NOTIFICATION', message);
}

/**
 * Checks the `notification` member of a Submit body; absent or `null` means none. Throws 422
 * `INVALID_NOTIFICATION` for a wrong shape or a link with a refused scheme.
 */
export function validateNotification(value: unknown): NotificationRequest | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = z.safeParse(notificationSchema, value);
  if (!parsed.success) {
    throw invalid(`Invalid notification: ${describeIssues(parsed.error.issues)}`);
  }
  for (const [index, action] of (parsed.data.actions ?? []).entries()) {
    if (action.deeplink === undefined && action.mobileDeeplink === undefined) {
      throw invalid(`notification.actions.${index} needs a deeplink or a mobileDeeplink.`);
    }
    if (action.deeplink !== undefined && !isSafeWebLink(action.deeplink)) {
      throw invalid(`notification.actions.${index}.deeplink must be an https: URL.`);
    }
    if (action.mobileDeeplink !== undefined && !isSafeAppLink(action.mobileDeeplink)) {
      throw invalid(
        `notification.actions.${index}.mobileDeeplink must be an https: URL or an app scheme.`,
      );
    }
  }
  return parsed.data;
}
