// The campaign report's data: GET /campaigns/{id}/report?pageNumber= answers the campaign, its
// totals and 100 recipients a page. The table is virtual (only the rows in view are drawn), so the
// pages are read as their rows come into view, and a poke reads again only the pages in view (plus
// the totals): a 10,000-recipient campaign costs a handful of requests per refresh, not a hundred.
// After a live update that finishes the campaign the report reads itself once more 5 s later
// (spec/03 §2, §9), when the last acks have come in.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Campaign, CampaignReport, CampaignShipping, CampaignTotals } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useRefreshOnPoke } from '../../sync/use-refresh-on-poke.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { pagesFor, REPORT_PAGE_SIZE } from './campaign-form.ts';

export const FINISHED_RELOAD_MS = 5000;

export type ReportState = {
  campaign: Campaign | null;
  totals: CampaignTotals | null;
  /** The recipient at a row index, or undefined while its page loads. */
  rowAt: (index: number) => CampaignShipping | undefined;
  /** The table tells which rows are in view; their pages load. */
  setRange: (first: number, last: number) => void;
  loading: boolean;
};

export function useCampaignReport(id: number): ReportState {
  const [campaign, setCampaign] = useState<Campaign | null>(null);
  const [totals, setTotals] = useState<CampaignTotals | null>(null);
  const [pages, setPages] = useState<Map<number, CampaignShipping[]>>(new Map());
  const [loading, setLoading] = useState(true);
  const range = useRef<[number, number]>([0, 0]);
  // Every read is numbered; an answer is applied only if no later-started read of the same page (or,
  // for the totals, of any page) was applied already. Reads are never thrown away wholesale: on a busy
  // campaign pokes come faster than a slow read answers, and the report must still move.
  const seq = useRef(0);
  const applied = useRef({ meta: 0, pages: new Map<number, number>() });
  // The newest read in flight per page, so scrolling does not ask twice for a page on its way.
  const flying = useRef(new Map<number, number>());
  const current = useRef(id);

  const load = useCallback(
    (pageNumbers: number[], mode: 'fill' | 'refresh') => {
      for (const page of pageNumbers) {
        if (mode === 'fill' && flying.current.has(page)) continue;
        const mine = ++seq.current;
        flying.current.set(page, mine);
        api
          .get<CampaignReport>(`/campaigns/${id}/report`, { query: { pageNumber: page } })
          .then(
            (body) => {
              if (current.current !== id) return;
              if (mine > applied.current.meta) {
                applied.current.meta = mine;
                setCampaign(body.campaign);
                setTotals(body.totals);
              }
              if (mine > (applied.current.pages.get(page) ?? 0)) {
                applied.current.pages.set(page, mine);
                setPages((prev) => new Map(prev).set(page, body.shipping));
              }
            },
            // A failed background refresh keeps what is shown, quietly.
            (err: unknown) => mode === 'fill' && current.current === id && toastError(err),
          )
          .finally(() => {
            if (current.current !== id) return;
            if (flying.current.get(page) === mine) flying.current.delete(page);
            setLoading(false);
          });
      }
    },
    [id],
  );

  useEffect(() => {
    current.current = id;
    applied.current = { meta: 0, pages: new Map() };
    flying.current = new Map();
    setPages(new Map());
    setLoading(true);
    load([1], 'fill');
  }, [id, load]);

  const setRange = useCallback(
    (first: number, last: number) => {
      range.current = [first, last];
      const missing = pagesFor(first, last).filter((p) => !pages.has(p));
      if (missing.length) load(missing, 'fill');
    },
    [pages, load],
  );

  // A refresh keeps the rows on screen until their new page arrives; pages out of view are dropped
  // so they are read fresh when scrolled back to.
  const refresh = useCallback(() => {
    const [first, last] = range.current;
    const wanted = new Set([1, ...pagesFor(first, last)]);
    setPages((prev) => new Map([...prev].filter(([p]) => wanted.has(p))));
    load([...wanted], 'refresh');
  }, [load]);
  useRefreshOnPoke(refresh);

  const status = campaign?.status;
  const seen = useRef(status);
  useEffect(() => {
    const was = seen.current;
    seen.current = status;
    if (status !== 'FINALIZADA' || was === undefined || was === 'FINALIZADA') return;
    const timer = setTimeout(refresh, FINISHED_RELOAD_MS);
    return () => clearTimeout(timer);
  }, [status, refresh]);

  const rowAt = useCallback((index: number) => pages.get(Math.floor(index / REPORT_PAGE_SIZE) + 1)?.[index % REPORT_PAGE_SIZE], [pages]);
  return { campaign, totals, rowAt, setRange, loading };
}
