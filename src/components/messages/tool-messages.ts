/**
 * The display name of each tool id the service names (a quote's `monetization.toolId`, a usage
 * row's `toolId`): CreditCostPreview, UsageBreakdown. A tool without a name here shows by its id.
 */
export type ToolMessages = Readonly<Record<string, string>>;

/**
 * English tool names, the default: none, so a tool shows by its id until the app names it (the
 * service's ids are the app's own, which only the app can name).
 */
export const toolMessages: ToolMessages = {};

/**
 * The name `names` give tool `id`, else the id itself. Only a name of its own counts: an id such as
 * `constructor` or `toString` is never answered by an inherited member of the object.
 */
export function toolName(id: string, names: ToolMessages): string {
  return (Object.hasOwn(names, id) && names[id]) || id;
}
