// /helps: the help videos the super-admin publishes (spec/01 §2), each played in a dialog, and a
// link to the API's reference page (/docs, served by the API).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Help } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { apiBaseUrl } from '../../api/config.ts';
import { useResource } from '../../hooks/use-resource.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { EmptyState, Page } from '../../ui/Page.tsx';
import { Splash } from '../../ui/Splash.tsx';
import './strings.ts';

function Thumbnail({ video }: { video: string | null }) {
  const [failed, setFailed] = useState(false);
  return (
    <div className="relative aspect-video overflow-hidden rounded-t-lg bg-gradient-to-br from-teal-700 to-slate-800">
      {video && !failed && <img src={`https://img.youtube.com/vi/${video}/mqdefault.jpg`} alt="" loading="lazy" onError={() => setFailed(true)} className="size-full object-cover" />}
      <span className="absolute inset-0 flex items-center justify-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-black/55 text-white shadow-lg transition-transform group-hover:scale-110">
          <Icon name="play" className="ml-0.5 size-5" />
        </span>
      </span>
    </div>
  );
}

export function Component() {
  const { t } = useTranslation();
  const helps = useResource(() => api.get<Help[]>('/helps/list'), []);
  const [playing, setPlaying] = useState<Help | null>(null);

  return (
    <Page
      title={t('helps.title')}
      subtitle={t('helps.subtitle')}
      actions={
        // The API's own reference (its /docs page), for those who integrate with zapdesk.
        <a href={`${apiBaseUrl()}/docs`} target="_blank" rel="noreferrer" className="inline-flex h-9 items-center gap-2 rounded-md border border-line bg-surface px-3 text-sm font-medium text-ink shadow-xs hover:bg-raised">
          <Icon name="api" className="size-4" />
          {t('helps.apiReference')}
        </a>
      }
    >
      {helps.loading && !helps.data ? (
        <Splash inline />
      ) : !helps.data?.length ? (
        <EmptyState>{t('helps.empty')}</EmptyState>
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {helps.data.map((help) => (
            <li key={help.id}>
              <button
                type="button"
                onClick={() => setPlaying(help)}
                disabled={!help.video}
                aria-label={t('helps.watch', { title: help.title })}
                className="group flex h-full w-full flex-col rounded-lg border border-line bg-surface text-left shadow-xs transition-shadow hover:shadow-md disabled:cursor-default"
              >
                <Thumbnail video={help.video} />
                <span className="flex flex-1 flex-col gap-1 p-3.5">
                  <span className="font-medium">{help.title}</span>
                  {help.description && <span className="line-clamp-3 text-[13px] text-muted">{help.description}</span>}
                </span>
              </button>
              {help.link && (
                <a href={help.link} target="_blank" rel="noreferrer" className="mt-1.5 inline-block text-[13px] text-brand hover:underline">
                  {t('helps.moreInfo')}
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
      <Dialog open={playing !== null} title={playing?.title ?? ''} onClose={() => setPlaying(null)} size="lg">
        {playing?.video && (
          <iframe
            title={playing.title}
            src={`https://www.youtube-nocookie.com/embed/${playing.video}?autoplay=1`}
            allow="autoplay; encrypted-media; picture-in-picture"
            allowFullScreen
            className="aspect-video w-full rounded-md bg-black"
          />
        )}
        {playing?.description && <p className="mt-3 text-muted">{playing.description}</p>}
      </Dialog>
    </Page>
  );
}
