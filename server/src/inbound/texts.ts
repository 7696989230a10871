// The automatic texts the server writes itself (the company's own texts come from connections and
// queues). In the three interface languages; a user's language when one acts, English otherwise.

export type Lang = 'en' | 'pt' | 'es';

const TEXTS = {
  en: {
    greetingAccepted: (user: string) => `*Automatic message:*\nHello! My name is *${user}* and I will take care of you from now on.`,
    transferred: (queue: string) => `*Automatic message:*\nYou have been transferred to *${queue}*. Please wait, we will be with you shortly.`,
    rating: 'Please rate our service:',
    ratingOptions: '*1* - Unsatisfied\n*2* - Satisfied\n*3* - Very satisfied',
    ratingThanks: 'Thank you for your rating!',
    back: '*#* - Back to the main menu',
    invalidOption: 'Invalid option, please choose one of the options below.',
    assistantFailed: (who: string, why: string) => `${who} could not answer (${why}). The conversation waits for an attendant.`,
    assistantHandedOver: (who: string, why: string) => `${who} handed the conversation over: ${why}.`,
    copyOf: (name: string) => `${name} - copy`,
  },
  pt: {
    greetingAccepted: (user: string) => `*Mensagem automática:*\nOlá! Meu nome é *${user}* e vou prosseguir com o seu atendimento.`,
    transferred: (queue: string) => `*Mensagem automática:*\nVocê foi transferido para *${queue}*. Aguarde, já vamos te atender.`,
    rating: 'Por favor, avalie o nosso atendimento:',
    ratingOptions: '*1* - Insatisfeito\n*2* - Satisfeito\n*3* - Muito satisfeito',
    ratingThanks: 'Obrigado pela sua avaliação!',
    back: '*#* - Voltar ao menu principal',
    invalidOption: 'Opção inválida, escolha uma das opções abaixo.',
    assistantFailed: (who: string, why: string) => `${who} não conseguiu responder (${why}). A conversa aguarda um atendente.`,
    assistantHandedOver: (who: string, why: string) => `${who} transferiu a conversa: ${why}.`,
    copyOf: (name: string) => `${name} - cópia`,
  },
  es: {
    greetingAccepted: (user: string) => `*Mensaje automático:*\n¡Hola! Mi nombre es *${user}* y seguiré con su atención.`,
    transferred: (queue: string) => `*Mensaje automático:*\nUsted fue transferido a *${queue}*. Espere, pronto le atenderemos.`,
    rating: 'Por favor, califique nuestra atención:',
    ratingOptions: '*1* - Insatisfecho\n*2* - Satisfecho\n*3* - Muy satisfecho',
    ratingThanks: '¡Gracias por su calificación!',
    back: '*#* - Volver al menú principal',
    invalidOption: 'Opción inválida, elija una de las opciones abajo.',
    assistantFailed: (who: string, why: string) => `${who} no pudo responder (${why}). La conversación espera a un agente.`,
    assistantHandedOver: (who: string, why: string) => `${who} transfirió la conversación: ${why}.`,
    copyOf: (name: string) => `${name} - copia`,
  },
} as const;

export function texts(lang: string | null | undefined) {
  return TEXTS[(lang === 'pt' || lang === 'es' ? lang : 'en') as Lang];
}
