// Reading local-first state: a component subscribes to one entity's rows in the user's Replicache
// and re-renders when a pull or a local mutation changes them.
import { useEffect, useState } from 'react';
import { syncPrefix, type SyncPrefix, type SyncValues } from '@zapdesk/sync/keys';
import { useReplicache } from './SyncProvider.tsx';

/** Every row of one synced entity, or undefined until the first read. */
export function useSyncedList<P extends SyncPrefix>(prefix: P): SyncValues[P][] | undefined {
  const rep = useReplicache();
  const [rows, setRows] = useState<SyncValues[P][] | undefined>(undefined);
  useEffect(() => {
    if (!rep) return;
    return rep.subscribe((tx) => tx.scan({ prefix: syncPrefix(prefix) }).values().toArray() as Promise<SyncValues[P][]>, {
      onData: (data) => setRows(data),
    });
  }, [rep, prefix]);
  return rows;
}
