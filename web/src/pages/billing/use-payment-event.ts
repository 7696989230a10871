// The company's `payment` event (spec/03 §4: action CONCLUIDA with the new due date), heard on the
// sync socket (SyncProvider's event subscription) by the invoices page and the checkout.
import { useEffect, useRef } from 'react';
import type { PaymentEvent } from '@zapdesk/sync';
import { useEventSubscription } from '../../sync/SyncProvider.tsx';

function isPaymentEvent(data: unknown): data is PaymentEvent {
  return typeof data === 'object' && data !== null && (data as PaymentEvent).action === 'CONCLUIDA' && typeof (data as PaymentEvent).invoiceId === 'number';
}

export function usePaymentEvent(handler: (event: PaymentEvent) => void): void {
  const subscribe = useEventSubscription();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  }, [handler]);
  useEffect(() => {
    if (!subscribe) return;
    return subscribe((channel, data) => {
      if (channel === 'payment' && isPaymentEvent(data)) latest.current(data);
    });
  }, [subscribe]);
}
