// Texts of the kanban page (spec/02 §2.17), loaded with its chunk.
import { defineStrings } from '../../i18n/strings.ts';

export const strings = defineStrings('kanban', {
  en: {
    title: 'Kanban',
    help: 'Drag a card to another lane to change its tag.',
    keys: 'Press the left or right arrow to move the card to the next lane.',
    open: 'Open',
    emptyLane: 'No tickets here.',
    card: 'Ticket {{number}}, {{name}}, in {{lane}}',
    moved: 'Ticket {{number}} moved to {{lane}}.',
    moveTo: 'Move to another lane',
    moveToLane: 'Move to {{lane}}',
    seeTicket: 'See ticket',
    status: { open: 'open', pending: 'pending', closed: 'closed' },
  },
  pt: {
    title: 'Kanban',
    help: 'Arraste um cartão para outra coluna para trocar a tag.',
    keys: 'Pressione a seta para a esquerda ou para a direita para mover o cartão para a coluna vizinha.',
    open: 'Em aberto',
    emptyLane: 'Nenhum ticket aqui.',
    card: 'Ticket {{number}}, {{name}}, em {{lane}}',
    moved: 'Ticket {{number}} movido para {{lane}}.',
    moveTo: 'Mover para outra coluna',
    moveToLane: 'Mover para {{lane}}',
    seeTicket: 'Ver ticket',
    status: { open: 'aberto', pending: 'pendente', closed: 'fechado' },
  },
  es: {
    title: 'Kanban',
    help: 'Arrastre una tarjeta a otra columna para cambiar su etiqueta.',
    keys: 'Pulse la flecha izquierda o derecha para mover la tarjeta a la columna vecina.',
    open: 'Abiertos',
    emptyLane: 'No hay tickets aquí.',
    card: 'Ticket {{number}}, {{name}}, en {{lane}}',
    moved: 'Ticket {{number}} movido a {{lane}}.',
    moveTo: 'Mover a otra columna',
    moveToLane: 'Mover a {{lane}}',
    seeTicket: 'Ver ticket',
    status: { open: 'abierto', pending: 'pendiente', closed: 'cerrado' },
  },
});
