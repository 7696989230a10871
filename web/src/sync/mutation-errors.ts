// Mutations the server refused for a business reason (synced `mutationError` rows, one per refusal,
// listed for the whole client group) are toasted app-wide, each exactly once, by the tab that
// fired them. Replicache gives every page load (every Replicache instance) a fresh clientID, so
// filtering on this tab's clientID is what keeps out errors that existed before the page opened
// (earlier page loads of the same group) and errors of other tabs of the same browser (they toast
// their own; a shared "last seen" in local storage would race between tabs and toast twice). A
// client's mutation ids only grow, so the last id shown is all that must be remembered.
import { listMutationErrors, type ZapReplicache } from '@zapdesk/sync/replicache';
import type { MutationError } from '@zapdesk/sync';

/** This client's refusals after the last one shown, oldest first. */
export function findNewMutationErrors(errors: readonly MutationError[], clientID: string, lastShownID: number): MutationError[] {
  return errors.filter((e) => e.clientID === clientID && e.mutationID > lastShownID).sort((a, b) => a.mutationID - b.mutationID);
}

/** Calls `show` once for every refusal of this Replicache's own mutations; returns the unsubscribe. */
export function watchMutationErrors(rep: ZapReplicache, show: (error: MutationError) => void): () => void {
  let lastShownID = 0;
  return rep.subscribe(listMutationErrors, {
    onData: (errors) => {
      for (const error of findNewMutationErrors(errors, rep.clientID, lastShownID)) {
        lastShownID = error.mutationID;
        show(error);
      }
    },
  });
}
