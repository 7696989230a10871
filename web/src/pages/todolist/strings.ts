// Texts of the personal to-do list page, loaded with its chunk.
import { defineStrings } from '../../i18n/strings.ts';

export const strings = defineStrings('todolist', {
  en: {
    title: 'Tasks',
    subtitle: 'Your own to-do list, kept in this browser only.',
    newTask: 'New task',
    editTask: 'Edit the task',
    add: 'Add',
    empty: 'Nothing to do yet.',
  },
  pt: {
    title: 'Tarefas',
    subtitle: 'Sua lista de tarefas, guardada apenas neste navegador.',
    newTask: 'Nova tarefa',
    editTask: 'Editar a tarefa',
    add: 'Adicionar',
    empty: 'Nada a fazer por enquanto.',
  },
  es: {
    title: 'Tareas',
    subtitle: 'Su lista de tareas, guardada solo en este navegador.',
    newTask: 'Nueva tarea',
    editTask: 'Editar la tarea',
    add: 'Agregar',
    empty: 'Nada que hacer por ahora.',
  },
});
