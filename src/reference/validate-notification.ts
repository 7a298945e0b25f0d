/**
 * The notification a Submit may ask for, checked before the task is created by the protocol's one
 * rule (`src/protocol/notification.ts`); a request that breaks it is 422 `INVALID_NOTIFICATION`.
 */
import { checkNotificationRequest, type NotificationRequest } from '../protocol/notification.js';
import { ServiceError } from './service-error.js';

/**
 * Checks the `notification` member of a Submit body; absent or `null` means none. Throws 422
 * `INVALID_NOTIFICATION` for a wrong shape or a link with a refused scheme.
 */
export function validateNotification(value: unknown): NotificationRequest | undefined {
  if (value === undefined || value === null) return undefined;
  const checked = checkNotificationRequest(value);
  if (!checked.success) throw new ServiceError(422, 'INVALID_NOTIFICATION', checked.problem);
  return checked.data;
}
