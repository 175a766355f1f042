// Which model-list answer the page still wants, per role. Each ask for a role's models gets the
// role's next number, and so does every change that makes an earlier ask moot (another endpoint
// picked, a choice that lists nothing). An answer that comes back later than a newer ask or change is
// dropped: a slow failure for OpenAI's list must not overwrite what the page says about VS Code's
// models once the user has switched to them. Answers carry their role, so the roles count apart.
import type { ModelRole } from '../../src/shared/modelSetupProtocol';

export class ListRequests {
  private readonly latest: Record<ModelRole, number> = { root: 0, sub: 0 };

  /** A new ask (or a change that voids earlier asks) for the role: its number. */
  next(role: ModelRole): number {
    return ++this.latest[role];
  }

  /** Whether an answer to ask `requestId` is still the one the role waits for. */
  isCurrent(role: ModelRole, requestId: number): boolean {
    return this.latest[role] === requestId;
  }
}
