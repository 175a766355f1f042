// Which models a run tree used and how deep it went, read from the tree every surface keeps: the
// trajectory view's header, and the notification and the sidebar chat that ask for a missing price.
import type { RunNode } from './treeTypes';

/** Distinct sub-call models, the deepest depth anywhere under `run`, and the models that made calls with no known price. */
export function runModelsAndDepth(run: RunNode): { models: string[]; maxDepth: number; unpriced: string[] } {
  const models = new Set<string>();
  const unpriced = new Set<string>();
  let maxDepth = run.depth;
  const visit = (r: RunNode): void => {
    const rootModel = r.config?.root.model;
    for (const turn of r.turns) {
      if (turn.usage?.costUsd === null && rootModel) unpriced.add(rootModel);
      for (const cell of turn.cells) {
        for (const call of cell.subCalls) {
          models.add(call.model.model);
          if (call.usage?.costUsd === null) unpriced.add(call.model.model);
          if (call.depth > maxDepth) maxDepth = call.depth;
          if (call.child) visit(call.child);
        }
      }
    }
  };
  visit(run);
  return { models: [...models].sort(), maxDepth, unpriced: [...unpriced].sort() };
}
