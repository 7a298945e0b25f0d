import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import {
  chargedCredits,
  creditsAgree,
  findUsageInconsistency,
  type Usage,
  type UsageDetail,
} from '../../protocol/usage.js';
import type { OptionsResult } from '../../protocol/start-answers.js';
import { rootProps } from '../root-props.js';
import { warnInvalidProp } from '../dev-warning.js';
import { formatCredits, formatNumber, type Locale } from '../format.js';
import { creditMessages } from '../messages/credit-messages.js';
import { useMessages } from '../messages/messages-context.js';
import type { TaskwireMessagesOverride } from '../messages/messages.js';
import { toolMessages, toolName } from '../messages/tool-messages.js';
import { usageBreakdownMessages } from './usage-breakdown-messages.js';

/**
 * What a {@link UsageBreakdown} shows, mirrored in its `data-state`: no usage, a consistent table,
 * or a table whose total disagrees with its rows (docs/protocol.md, "Usage and credits"), with a
 * warning.
 */
export type UsageBreakdownState = 'empty' | 'consistent' | 'inconsistent';

/** Props of {@link UsageBreakdown}; any other prop goes to the root `<div>`. */
export interface UsageBreakdownProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children'> {
  /** The task's usage record (`record.usage`); absent or without entries means nothing was used. */
  usage?: Usage | null;
  /** The preflight quote (`useTaskOptions().data`), to compare the charge with. Defaults to none. */
  quote?: OptionsResult;
  /** The table's caption. Defaults to the `usageBreakdown.caption` message (`'Credits used'`). */
  caption?: ReactNode;
  /** Locale of the figures. Defaults to the provider's `locale`, else the user's. */
  locale?: Locale;
  /**
   * Words to use instead of the provider's (or English), in part: the `credits`, `usageBreakdown`
   * and `tools` groups. Defaults to none.
   */
  messages?: TaskwireMessagesOverride<'credits' | 'usageBreakdown' | 'tools'> | undefined;
}

const COMPONENT = 'UsageBreakdown';

/** The English groups the table reads; nothing else of the messages is in its bundle. */
const ENGLISH = {
  credits: creditMessages,
  usageBreakdown: usageBreakdownMessages,
  tools: toolMessages,
};

/**
 * Whether `detail` alone breaks the rule of docs/protocol.md, "Usage and credits": checked by the
 * protocol's own `findUsageInconsistency` on a record of that row and its charged total, so the rule
 * is written once; such a record can only fail on the row.
 */
function isInconsistentRow(detail: UsageDetail): boolean {
  return (
    findUsageInconsistency({ credits: chargedCredits([detail]), details: [detail] }) !== undefined
  );
}

function checkUsage(usage: Usage | null | undefined): Usage | undefined {
  if (usage == null) return undefined;
  if (
    typeof usage === 'object' &&
    Array.isArray(usage.details) &&
    typeof usage.credits === 'number'
  ) {
    return usage;
  }
  warnInvalidProp(COMPONENT, 'usage', usage, 'the empty state');
  return undefined;
}

/**
 * A task's credit usage as a real table: one row per tool (by its name in the messages, else its
 * id) with price, amount and credits, failed rows marked "not charged" in words and left out of
 * the total, the service's total, a visible warning when that total disagrees with the rows, and
 * the preflight quote beside the charge.
 */
export const UsageBreakdown = forwardRef<HTMLDivElement, UsageBreakdownProps>(
  function UsageBreakdown(
    {
      usage: usageProp,
      quote,
      caption: captionProp,
      locale: localeProp,
      messages: messagesProp,
      ...rest
    },
    ref,
  ) {
    const { messages, locale } = useMessages(ENGLISH, messagesProp, localeProp);
    const text = messages.usageBreakdown;
    const credited = (amount: number) => formatCredits(amount, locale, messages.credits);
    const caption = captionProp ?? text.caption;
    const usage = checkUsage(usageProp);
    const problem = usage ? findUsageInconsistency(usage) : undefined;
    let state: UsageBreakdownState;
    if (!usage || usage.details.length === 0) state = 'empty';
    else state = problem === undefined ? 'consistent' : 'inconsistent';

    const number = (value: number) => formatNumber(value, locale, { maximumFractionDigits: 4 });
    const quoted = quote?.credits;
    const charged = usage?.credits ?? 0;
    const rowsTotal = usage ? chargedCredits(usage.details) : 0;

    return (
      <div {...rootProps(ref, 'taskwire-usage', state, rest)}>
        {state === 'empty' || !usage ? (
          <p className="taskwire-usage__empty">
            <span className="taskwire-usage__title">{caption}</span> {text.empty}
          </p>
        ) : (
          <>
            <table className="taskwire-usage__table">
              <caption>{caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.tool}</th>
                  <th scope="col">{text.price}</th>
                  <th scope="col">{text.amount}</th>
                  <th scope="col">{text.credits}</th>
                </tr>
              </thead>
              <tbody>
                {usage.details.map((detail, index) => (
                  // Rows have no id of their own and never reorder, so the position is the key.
                  <tr key={index} data-failed={detail.failed ? '' : undefined}>
                    <th scope="row">{toolName(detail.toolId, messages.tools)}</th>
                    <td>{number(detail.price)}</td>
                    <td>{number(detail.amount)}</td>
                    <td>{detail.failed ? text.notCharged : number(detail.credits)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={3}>
                    {text.total}
                  </th>
                  <td>{number(usage.credits)}</td>
                </tr>
              </tfoot>
            </table>
            {problem !== undefined && (
              <div className="taskwire-usage__warning" role="alert">
                <p>
                  <strong>{text.mismatch}</strong>
                  {!creditsAgree(usage.credits, rowsTotal) && (
                    <> {text.totalMismatch(credited(usage.credits), credited(rowsTotal))}</>
                  )}
                </p>
                {usage.details.filter(isInconsistentRow).map((detail, index) => (
                  <p key={index} className="taskwire-usage__detail">
                    {text.rowMismatch(
                      toolName(detail.toolId, messages.tools),
                      credited(detail.credits),
                      credited(detail.price * detail.amount),
                    )}
                  </p>
                ))}
              </div>
            )}
          </>
        )}
        {quoted !== undefined && (
          <p
            className="taskwire-usage__quote"
            data-matches={creditsAgree(quoted, charged) ? '' : undefined}
          >
            {creditsAgree(quoted, charged)
              ? text.chargedAsQuoted(credited(charged))
              : text.quotedAndCharged(credited(quoted), credited(charged))}
          </p>
        )}
      </div>
    );
  },
);
