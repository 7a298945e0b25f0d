/** The words {@link NotificationActions} adds to the service's text. */
export interface NotificationActionsMessages {
  /** A web link without a label: "Open example.com". */
  openWeb: (host: string) => string;
  /** An app link without a label: "Open in the app". */
  openApp: string;
  /** An app link whose action has a label: "View export in the app". */
  labelInApp: (label: string) => string;
}

/** English notification wording, the default. */
export const notificationActionsMessages: NotificationActionsMessages = {
  openWeb: (host) => `Open ${host}`,
  openApp: 'Open in the app',
  labelInApp: (label) => `${label} in the app`,
};
