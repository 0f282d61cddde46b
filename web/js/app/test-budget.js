// The browser tests' small fixed budget for the engine's searches a person asks for (a hint,
// an analysis, the review's analysis of each move), so that a test of the page does not wait
// for a full Hard search each time. Only a test sets it, with an init script that defines
// window.__parlourTestBudget before the page's modules run (e2e/conftest.py); nothing in the
// page does, so the product's requests go as they were asked, at the bridge's default budget.

const SEARCHED = new Set(["hint", "analyse"]);

/** `params` of a request to `method`, with `iterations: budget` added where a test set a
 * budget (a positive whole number), the method searches and no budget was asked for; else
 * `params` itself, untouched. */
export function withTestBudget(method, params, budget = globalThis.__parlourTestBudget) {
  if (!SEARCHED.has(method) || !Number.isInteger(budget) || budget < 1) return params;
  if (params.iterations !== undefined) return params;
  return { ...params, iterations: budget };
}
