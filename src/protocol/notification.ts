/**
 * The notification a Submit may ask for (docs/protocol.md, "Notifications"): its shape and the rule
 * for its links, in one place. The client types its Submit option with it; the reference service
 * refuses a request that breaks it (422 `INVALID_NOTIFICATION`), so that no `javascript:` or `data:`
 * URL ever reaches a sink that might render it.
 */
import * as z from 'zod/mini';
import { describeIssues, ruleOfIssue } from './describe-issues.js';
import { isSafeAppLink, isSafeWebLink } from './links.js';

/** A call to action of a notification. */
export interface NotificationAction {
  /** An `https:` link. */
  deeplink?: string;
  /** An `https:` or app-scheme link for mobile apps. */
  mobileDeeplink?: string;
}

/** The notification asked for on Submit. */
export interface NotificationRequest {
  /** Opt in to the notification when the task requires one. */
  enabled?: boolean;
  /** Content overriding the default notification. */
  data?: { title?: string; description?: string };
  /** Calls to action: `deeplink` must be `https:`, `mobileDeeplink` `https:` or an app scheme. */
  actions?: NotificationAction[];
}

/** The longest link accepted in a notification action. */
const MAX_LINK_LENGTH = 2048;

/** The shape of a notification request, with the service's size limits. */
export const notificationRequestSchema = z.object({
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
}) satisfies z.ZodMiniType<NotificationRequest>;

/**
 * Checks a notification request: its shape, then every link in it. Returns the request, or what is
 * wrong with it in one line.
 */
export function checkNotificationRequest(
  value: unknown,
): { success: true; data: NotificationRequest } | { success: false; problem: string } {
  const parsed = z.safeParse(notificationRequestSchema, value);
  if (!parsed.success) {
    return {
      success: false,
      problem: `Invalid notification: ${describeIssues(parsed.error.issues, [], ruleOfIssue)}`,
    };
  }
  for (const [index, action] of (parsed.data.actions ?? []).entries()) {
    const where = `notification.actions.${index}`;
    if (action.deeplink === undefined && action.mobileDeeplink === undefined) {
      return { success: false, problem: `${where} needs a deeplink or a mobileDeeplink.` };
    }
    if (action.deeplink !== undefined && !isSafeWebLink(action.deeplink)) {
      return { success: false, problem: `${where}.deeplink must be an https: URL.` };
    }
    if (action.mobileDeeplink !== undefined && !isSafeAppLink(action.mobileDeeplink)) {
      return {
        success: false,
        problem: `${where}.mobileDeeplink must be an https: URL or an app scheme.`,
      };
    }
  }
  return { success: true, data: parsed.data };
}
