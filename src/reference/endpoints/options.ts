/**
 * Options (docs/protocol.md, "Options"): what a task would cost, without running it. A task with a
 * preflight answers for itself; any other one is priced from its declared monetization
 * (docs/protocol.md, "Usage and credits").
 */
import * as z from 'zod/mini';
import type { OptionsResult } from '../../protocol/start-answers.js';
import { optionsResultSchema } from '../../protocol/start-answers.js';
import { successResponse } from '../json-response.js';
import { isJsonObject } from '../parse-json-body.js';
import type { TaskCall } from '../service-context.js';
import { ServiceError } from '../service-error.js';

/**
 * Answers Options: the task's own answer when it has a preflight (500 when that answer breaks the
 * schema), else its price, else `{}`.
 */
export async function answerOptions({ definition, params }: TaskCall): Promise<Response> {
  if (definition.enablePreflight === true && definition.options) {
    const answer: unknown = await definition.options(params);
    if (!isJsonObject(answer) || !z.safeParse(optionsResultSchema, answer).success) {
      throw new ServiceError(500, 'INTERNAL', 'The task answered Options with an invalid result.');
    }
    return successResponse(200, JSON.parse(JSON.stringify(answer)) as OptionsResult);
  }
  const monetization = definition.monetization;
  if (monetization === undefined) return successResponse(200, {});
  const usageAmount = monetization.usageAmount ?? 1;
  return successResponse(200, {
    monetization: { toolId: monetization.toolId },
    usageAmount,
    credits: monetization.price * usageAmount,
  });
}
