// One pass of work at a time, however often it is asked for. `wake()` asks for a pass on the next
// turn of the event loop (asks in the same turn fold into one); asks that come while a pass runs
// fold into one more pass after it. Each pass starts on a fresh turn, so work woken by a commit
// does not run ahead of the requests waiting for their answers, unless the caller says someone waits
// on it (`wake(true)`: an outbox lane on SQLite); while the pump's work is `bulk`, its passes also
// keep to the turn's background budget (turns.ts) whatever the caller says.
//
// Used by the outbox lanes, the assistants' worker and the webhooks' worker: each pass claims
// what there is room for and starts it; whatever frees room (a send recorded, a turn ended) wakes
// the pump again.

import { backgroundTurn } from './turns.ts';

export type Pump = {
  /**
   * Asks for a pass. `now`: someone waits on this work this moment (an outbox slot freed with
   * replies behind it), so unless the work is bulk the pass starts in this turn instead of the next.
   */
  wake(now?: boolean): void;
  /** A pass is scheduled or running. */
  readonly busy: boolean;
};

export type PumpOptions = {
  /** One pass. Answering true asks for another at once (a full page may hide more work). */
  pass: () => Promise<boolean | void>;
  /** A pass threw: reported, and the pump waits for the next wake. */
  onError: (err: unknown) => void;
  /** Called when the pump goes quiet (no pass scheduled or running). */
  onSettled?: () => void;
  /**
   * Asked before each pass: is the work at hand bulk (nobody waits on it this moment: a campaign's
   * sends)? Then the pass takes turns with the requests (turns.ts backgroundTurn).
   */
  bulk?: () => boolean;
};

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createPump({ pass, onError, onSettled, bulk }: PumpOptions): Pump {
  const turn = () => (bulk?.() ? backgroundTurn() : nextTurn());
  let scheduled = false;
  let running = false;
  let again = false;
  let againNow = false;
  const urgent = () => !bulk?.();

  async function run() {
    running = true;
    try {
      do {
        again = false;
        if (await pass()) again = true;
        if (again && !(againNow && urgent())) await turn();
        againNow = false;
      } while (again);
    } catch (err) {
      onError(err);
    } finally {
      running = false;
    }
    // A wake that came during a failed pass still gets its pass.
    if (again) wake();
    else onSettled?.();
  }

  function wake(now = false) {
    if (running) {
      again = true;
      againNow ||= now;
      return;
    }
    if (now && urgent()) {
      void run();
      return;
    }
    if (scheduled) return;
    scheduled = true;
    void turn().then(() => {
      scheduled = false;
      // A pass asked for now may be running already: this ask folds into its next one.
      if (running) again = true;
      else void run();
    });
  }

  return {
    wake,
    get busy() {
      return scheduled || running;
    },
  };
}
