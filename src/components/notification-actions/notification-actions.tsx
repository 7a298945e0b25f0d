import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { isSafeAppLink, isSafeWebLink } from '../../protocol/links.js';
import { rootProps } from '../root-props.js';
import { warnInvalidProp } from '../dev-warning.js';
import { useMessages } from '../messages/messages-context.js';
import type { TaskwireMessagesOverride } from '../messages/messages.js';
import {
  notificationActionsMessages,
  type NotificationActionsMessages,
} from './notification-actions-messages.js';

/**
 * A notification's call to action (docs/protocol.md, "Notifications"): a web link, an app link, and
 * an optional label.
 */
export interface NotificationAction {
  /** A web link; shown only when it is `https:`. */
  deeplink?: string;
  /** A link for the mobile app; shown only when it is `https:` or of a scheme in `appSchemes`. */
  mobileDeeplink?: string;
  /**
   * The link text. Defaults to the `notificationActions` messages: "Open <host>" for a web link and
   * "Open in the app" for an app link.
   */
  label?: string;
}

/** What a {@link NotificationActions} shows, mirrored in its `data-state`: no safe link, or some. */
export type NotificationActionsState = 'empty' | 'listed';

/** Props of {@link NotificationActions}; any other prop goes to the root `<div>`. */
export interface NotificationActionsProps extends Omit<
  ComponentPropsWithoutRef<'div'>,
  'children'
> {
  /** The notification's title, shown as text. Defaults to none. */
  title?: string;
  /** The notification's description, shown as text. Defaults to none. */
  description?: string;
  /** The notification's actions; a link of a scheme not allowed is left out. Defaults to `[]`. */
  actions?: readonly NotificationAction[];
  /**
   * The app's own schemes that a mobile link may use, such as `['myapp']` (or `'myapp:'`, in any
   * case); `javascript:`, `data:`, `vbscript:`, `file:`, `blob:` and `http:` never count. Defaults to
   * `[]`: only `https:` links.
   */
  appSchemes?: readonly string[];
  /** Shown when no action has a safe link. Defaults to nothing. */
  emptyText?: ReactNode;
  /** Words to use instead of the provider's (or English), in part. Defaults to none. */
  messages?: TaskwireMessagesOverride<'notificationActions'> | undefined;
}

const COMPONENT = 'NotificationActions';

interface SafeLink {
  key: string;
  href: string;
  text: string;
}

function hostOf(link: string): string {
  try {
    return new URL(link).host;
  } catch {
    return link;
  }
}

/**
 * The schemes of `appSchemes` as a URL parser spells them (`myapp:`). One that can never make a link
 * (`javascript`, `my app`) is reported in development, since listing it has no effect.
 */
function allowedSchemes(appSchemes: readonly string[]): Set<string> {
  const schemes = new Set<string>();
  if (!Array.isArray(appSchemes)) {
    warnInvalidProp(COMPONENT, 'appSchemes', appSchemes, '[]');
    return schemes;
  }
  appSchemes.forEach((entry, index) => {
    const scheme =
      typeof entry === 'string' ? `${entry.trim().toLowerCase().replace(/:$/, '')}:` : '';
    // links.ts decides what a safe scheme is, so a made-up link of this scheme asks it; the entry
    // must also be the whole scheme as the URL parser reads it (not `myapp://`, not `my app`).
    const probe = `${scheme}x`;
    if (isSafeAppLink(probe) && new URL(probe).protocol === scheme) schemes.add(scheme);
    else warnInvalidProp(COMPONENT, `appSchemes[${index}]`, entry, 'no link of that scheme');
  });
  return schemes;
}

/** The links of `actions` that may be rendered; every refused one is reported in development. */
function safeLinks(
  actions: readonly NotificationAction[],
  schemes: Set<string>,
  text: NotificationActionsMessages,
): SafeLink[] {
  const links: SafeLink[] = [];
  actions.forEach((action, index) => {
    const { deeplink, mobileDeeplink, label } = action;
    const named = typeof label === 'string' && label.trim() !== '' ? label : undefined;
    if (deeplink !== undefined) {
      if (isSafeWebLink(deeplink)) {
        links.push({
          key: `${index}-web`,
          href: deeplink,
          text: named ?? text.openWeb(hostOf(deeplink)),
        });
      } else {
        warnInvalidProp(COMPONENT, `actions[${index}].deeplink`, deeplink, 'no link');
      }
    }
    if (mobileDeeplink !== undefined && mobileDeeplink !== deeplink) {
      // An app scheme opens whatever the device registered for it (`ms-msdt:`, `search-ms:`), so
      // only the schemes this app names are trusted; isSafeAppLink guarantees the URL parses.
      const isApp = isSafeAppLink(mobileDeeplink) && !isSafeWebLink(mobileDeeplink);
      if (
        isSafeWebLink(mobileDeeplink) ||
        (isApp && schemes.has(new URL(mobileDeeplink).protocol))
      ) {
        links.push({
          key: `${index}-app`,
          href: mobileDeeplink,
          text: named ? text.labelInApp(named) : text.openApp,
        });
      } else {
        warnInvalidProp(
          COMPONENT,
          `actions[${index}].mobileDeeplink`,
          mobileDeeplink,
          isApp ? 'no link (its scheme is not in `appSchemes`)' : 'no link',
        );
      }
    }
  });
  return links;
}

/**
 * A completion notification's title, description and call-to-action links, each link rendered only
 * when its scheme is allowed (`https:`, or for the mobile link one of `appSchemes`; never
 * `javascript:`, `data:` and the like) and left out otherwise, every string from the service
 * rendered as text.
 */
export const NotificationActions = forwardRef<HTMLDivElement, NotificationActionsProps>(
  function NotificationActions(
    {
      title,
      description,
      actions: actionsProp = [],
      appSchemes = [],
      emptyText,
      messages: messagesProp,
      ...rest
    },
    ref,
  ) {
    // Its one English group: nothing else of the messages is in its bundle.
    const text = useMessages({ notificationActions: notificationActionsMessages }, messagesProp)
      .messages.notificationActions;
    let actions = actionsProp;
    if (!Array.isArray(actions)) {
      warnInvalidProp(COMPONENT, 'actions', actions, '[]');
      actions = [];
    }
    const links = safeLinks(actions, allowedSchemes(appSchemes), text);
    const state: NotificationActionsState = links.length === 0 ? 'empty' : 'listed';
    return (
      <div {...rootProps(ref, 'taskwire-notification', state, rest)}>
        {title && <p className="taskwire-notification__title">{title}</p>}
        {description && <p className="taskwire-notification__description">{description}</p>}
        {state === 'listed' ? (
          <ul className="taskwire-notification__actions">
            {links.map((link) => (
              <li key={link.key}>
                <a
                  className="taskwire-notification__link"
                  href={link.href}
                  rel="noopener noreferrer"
                >
                  {link.text}
                </a>
              </li>
            ))}
          </ul>
        ) : (
          emptyText != null && <p className="taskwire-notification__empty">{emptyText}</p>
        )}
      </div>
    );
  },
);
