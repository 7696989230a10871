// /todolist: a personal to-do list kept in this browser (local storage `tasks`, spec/02 §3): add,
// edit in place, delete.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, IconButton } from '../../ui/Button.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { addTask, editTask, loadTasks, removeTask, saveTasks, type Task } from './tasks.ts';
import './strings.ts';

export function Component() {
  const { t, i18n } = useTranslation();
  const [tasks, setTasks] = useState<Task[]>(loadTasks);
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<number | null>(null);
  const [draft, setDraft] = useState('');
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });

  useEffect(() => saveTasks(tasks), [tasks]);

  const finishEdit = (index: number) => {
    setTasks((list) => editTask(list, index, draft));
    setEditing(null);
  };

  return (
    <Page title={t('todolist.title')} subtitle={t('todolist.subtitle')}>
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setTasks((list) => addTask(list, text));
          setText('');
        }}
      >
        <input
          aria-label={t('todolist.newTask')}
          placeholder={t('todolist.newTask')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="h-9 min-w-0 flex-1 rounded-md border border-line bg-surface px-3 text-sm text-ink focus:border-brand focus:ring-2 focus:ring-brand/25 focus:outline-none"
        />
        <Button type="submit" icon="plus">
          {t('todolist.add')}
        </Button>
      </form>
      <Card>
        <ul aria-label={t('todolist.title')}>
          {tasks.map((task, i) => (
            <li key={`${task.createdAt}-${i}`} className="flex items-center gap-2 border-b border-line px-3 py-2 last:border-0">
              {editing === i ? (
                <input
                  autoFocus
                  aria-label={t('todolist.editTask')}
                  value={draft}
                  onChange={(e) => setDraft(e.target.value)}
                  onBlur={() => finishEdit(i)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') finishEdit(i);
                    if (e.key === 'Escape') setEditing(null);
                  }}
                  className="h-9 min-w-0 flex-1 rounded-md border border-brand bg-surface px-3 text-sm focus:ring-2 focus:ring-brand/25 focus:outline-none"
                />
              ) : (
                <span className="min-w-0 flex-1">
                  <span className="block break-words">{task.text}</span>
                  <span className="block text-xs text-muted">{when.format(new Date(task.updatedAt))}</span>
                </span>
              )}
              <IconButton
                icon="edit"
                label={`${t('common.edit')} ${task.text}`}
                onClick={() => {
                  setDraft(task.text);
                  setEditing(i);
                }}
              />
              <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${task.text}`} onClick={() => setTasks((list) => removeTask(list, i))} />
            </li>
          ))}
        </ul>
        {tasks.length === 0 && <EmptyState>{t('todolist.empty')}</EmptyState>}
      </Card>
    </Page>
  );
}
