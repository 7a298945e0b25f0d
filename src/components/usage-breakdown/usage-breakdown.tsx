import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import {
  chargedCredits,
  creditsAgree,
  findUsageInconsistency,
  type Usage,
} from '../../protocol/usage.js';
import type { OptionsResult } from '../../protocol/start-answers.js';
import { rootProps } from '../root-props.js';
import { warnInvalidProp } from '../dev-warning.js';
import { formatCredits, formatNumber, type Locale } from '../format.js';

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
  /** The table's caption. Defaults to `'Credits used'`. */
  caption?: ReactNode;
  /** Locale of the figures. Defaults to the user's locale. */
  locale?: Locale;
}

const COMPONENT = 'UsageBreakdown';

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
 * A task's credit usage as a real table: one row per tool with price, amount and credits, failed
 * rows marked "not charged" in words and left out of the total, the service's total, a visible
 * warning when that total disagrees with the rows, and the preflight quote beside the charge.
 */
export const UsageBreakdown = forwardRef<HTMLDivElement, UsageBreakdownProps>(
  function UsageBreakdown(
    { usage: usageProp, quote, caption = 'Credits used', locale, ...rest },
    ref,
  ) {
    const usage = checkUsage(usageProp);
    const problem = usage ? findUsageInconsistency(usage) : undefined;
    let state: UsageBreakdownState;
    if (!usage || usage.details.length === 0) state = 'empty';
    else state = problem === undefined ? 'consistent' : 'inconsistent';

    const number = (value: number) => formatNumber(value, locale, { maximumFractionDigits: 4 });
    const quoted = quote?.credits;
    const charged = usage?.credits ?? 0;

    return (
      <div {...rootProps(ref, 'taskwire-usage', state, rest)}>
        {state === 'empty' || !usage ? (
          <p className="taskwire-usage__empty">
            <span className="taskwire-usage__title">{caption}</span> No credits were used.
          </p>
        ) : (
          <>
            <table className="taskwire-usage__table">
              <caption>{caption}</caption>
              <thead>
                <tr>
                  <th scope="col">Tool</th>
                  <th scope="col">Price</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Credits</th>
                </tr>
              </thead>
              <tbody>
                {usage.details.map((detail, index) => (
                  // Rows have no id of their own and never reorder, so the position is the key.
                  <tr key={index} data-failed={detail.failed ? '' : undefined}>
                    <th scope="row">{detail.toolId}</th>
                    <td>{number(detail.price)}</td>
                    <td>{number(detail.amount)}</td>
                    <td>{detail.failed ? 'Not charged (failed)' : number(detail.credits)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={3}>
                    Total
                  </th>
                  <td>{number(usage.credits)}</td>
                </tr>
              </tfoot>
            </table>
            {problem !== undefined && (
              <div className="taskwire-usage__warning" role="alert">
                <p>
                  <strong>These figures do not add up.</strong> The service reported a total of{' '}
                  {formatCredits(usage.credits, locale)}; the charged rows add up to{' '}
                  {formatCredits(chargedCredits(usage.details), locale)}.
                </p>
                <p className="taskwire-usage__detail">{problem}</p>
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
              ? `Charged as quoted: ${formatCredits(charged, locale)}.`
              : `Quoted ${formatCredits(quoted, locale)}, charged ${formatCredits(charged, locale)}.`}
          </p>
        )}
      </div>
    );
  },
);
