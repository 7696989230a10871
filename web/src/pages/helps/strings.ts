// Texts of the help videos page (spec/02 §2.14), loaded with its chunk.
import { defineStrings } from '../../i18n/strings.ts';

export const strings = defineStrings('helps', {
  en: {
    title: 'Help',
    subtitle: 'Short videos about how to use zapdesk.',
    empty: 'No help videos have been published yet.',
    apiReference: 'API reference',
    watch: 'Watch: {{title}}',
    moreInfo: 'More information',
  },
  pt: {
    title: 'Ajuda',
    subtitle: 'Vídeos curtos sobre como usar o zapdesk.',
    empty: 'Nenhum vídeo de ajuda foi publicado ainda.',
    apiReference: 'Referência da API',
    watch: 'Assistir: {{title}}',
    moreInfo: 'Mais informações',
  },
  es: {
    title: 'Ayuda',
    subtitle: 'Videos cortos sobre cómo usar zapdesk.',
    empty: 'Todavía no se publicó ningún video de ayuda.',
    apiReference: 'Referencia de la API',
    watch: 'Ver: {{title}}',
    moreInfo: 'Más información',
  },
});
