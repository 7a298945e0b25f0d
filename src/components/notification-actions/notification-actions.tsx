import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { isSafeAppLink, isSafeWebLink } from '../../protocol/links.js';
import { rootProps } from '../root-props.js';
import { warnInvalidProp } from '../dev-warning.js';

/**
 * A notification's call to action (docs/protocol.md, "Notifications"): a web link, an app link, and
 * an optional label.
 */
export interface NotificationAction {
  /** A web link; shown only when it is `https:`. */
  deeplink?: string;
  /** A link for the mobile app; shown only when it is `https:` or an app scheme (`myapp:`). */
  mobileDeeplink?: string;
  /** The link text. Defaults to "Open <host>" for a web link and "Open in the app" for an app link. */
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
  /** The notification's actions; a link with any other scheme is not rendered. Defaults to `[]`. */
  actions?: readonly NotificationAction[];
  /** Shown when no action has a safe link. Defaults to nothing. */
  emptyText?: ReactNode;
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

/** The links of `actions` that may be rendered; every refused one is reported in development. */
function safeLinks(actions: readonly NotificationAction[]): SafeLink[] {
  const links: SafeLink[] = [];
  actions.forEach((action, index) => {
    const { deeplink, mobileDeeplink, label } = action;
    const text = typeof label === 'string' && label.trim() !== '' ? label : undefined;
    if (deeplink !== undefined) {
      if (isSafeWebLink(deeplink)) {
        links.push({
          key: `${index}-web`,
          href: deeplink,
          text: text ?? `Open ${hostOf(deeplink)}`,
        });
      } else {
        warnInvalidProp(COMPONENT, `actions[${index}].deeplink`, deeplink, 'no link');
      }
    }
    if (mobileDeeplink !== undefined && mobileDeeplink !== deeplink) {
      if (isSafeAppLink(mobileDeeplink)) {
        links.push({
          key: `${index}-app`,
          href: mobileDeeplink,
          text: text ? `${text} in the app` : 'Open in the app',
        });
      } else {
        warnInvalidProp(COMPONENT, `actions[${index}].mobileDeeplink`, mobileDeeplink, 'no link');
      }
    }
  });
  return links;
}

/**
 * A completion notification's title, description and call-to-action links, each link rendered only
 * when its scheme is allowed (`https:`, or an app scheme for the mobile link; never `javascript:`,
 * `data:` and the like), every string from the service rendered as text.
 */
export const NotificationActions = forwardRef<HTMLDivElement, NotificationActionsProps>(
  function NotificationActions(
    { title, description, actions: actionsProp = [], emptyText, ...rest },
    ref,
  ) {
    let actions = actionsProp;
    if (!Array.isArray(actions)) {
      warnInvalidProp(COMPONENT, 'actions', actions, '[]');
      actions = [];
    }
    const links = safeLinks(actions);
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
